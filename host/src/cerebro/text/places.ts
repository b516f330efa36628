// Where a place is: a city or province a customer names ("Vivo en Palma", "¿cuánto tarda a Oporto?") is often not in
// the documents, which speak of the region, the islands or the country it belongs to ("Islas Baleares", "Portugal
// continental", "Resto de la España peninsular"). A question word naming a known place also searches the names of the
// places that contain it, as alternatives of its own word group (`queryTermGroups`). Spain, Portugal, Mexico and
// Chile (the regional Spanish the documents are written in). A name of places in two countries (Guadalajara, Mérida,
// Santiago, León) is left out; a name that is also a common word (palma, granada, cuenca) is kept: it only adds its
// region's names, which a question about the common thing rarely meets.
/**
 * Each line: the words of the containing places (province, region, country part), then ":", then the places they
 * contain (single words, folded, as a question says them). A containing name's word that is also a common word is
 * left out ("mancha" of Castilla-La Mancha, "baja" of Baja California, "nuevo" of Nuevo León): it would count as the
 * place in any passage about a stain, a cancellation or something new.
 */
const CONTAINMENT = `
almeria andalucia peninsular: almeria roquetas
cadiz andalucia peninsular: cadiz jerez algeciras
cordoba andalucia peninsular: cordoba
granada andalucia peninsular: granada motril
huelva andalucia peninsular: huelva
jaen andalucia peninsular: jaen linares
malaga andalucia peninsular: malaga marbella
sevilla andalucia peninsular: sevilla
huesca aragon peninsular: huesca
teruel aragon peninsular: teruel
zaragoza aragon peninsular: zaragoza
asturias peninsular: asturias oviedo gijon aviles
baleares: baleares mallorca menorca ibiza eivissa formentera palma mahon
canarias: canarias tenerife lanzarote fuerteventura palmas gomera
cantabria peninsular: cantabria santander torrelavega
albacete castilla peninsular: albacete
cuenca castilla peninsular: cuenca
toledo castilla peninsular: toledo talavera
avila castilla peninsular: avila
burgos castilla peninsular: burgos
palencia castilla peninsular: palencia
salamanca castilla peninsular: salamanca
segovia castilla peninsular: segovia
soria castilla peninsular: soria
valladolid castilla peninsular: valladolid
zamora castilla peninsular: zamora
barcelona cataluna catalunya peninsular: barcelona hospitalet badalona sabadell terrassa
girona cataluna catalunya peninsular: girona gerona
lleida cataluna catalunya peninsular: lleida lerida
tarragona cataluna catalunya peninsular: tarragona reus
alicante valenciana peninsular: alicante alacant elche elx torrevieja benidorm orihuela
castellon valenciana peninsular: castellon castello
valencia valenciana peninsular: valencia gandia
badajoz extremadura peninsular: badajoz
caceres extremadura peninsular: caceres
coruna galicia peninsular: coruna ferrol
lugo galicia peninsular: lugo
ourense galicia peninsular: ourense orense
pontevedra galicia peninsular: pontevedra vigo
madrid peninsular: madrid getafe mostoles leganes fuenlabrada alcorcon
murcia peninsular: murcia cartagena lorca
navarra peninsular: navarra pamplona tudela
alava vasco euskadi peninsular: alava araba vitoria gasteiz
vizcaya bizkaia vasco euskadi peninsular: vizcaya bizkaia bilbao barakaldo
guipuzcoa gipuzkoa vasco euskadi peninsular: guipuzcoa gipuzkoa donostia
rioja peninsular: rioja logrono
ceuta: ceuta
melilla: melilla
portugal continental: lisboa oporto porto braga coimbra faro aveiro setubal evora viseu leiria guimaraes algarve
portugal madeira: madeira funchal
portugal azores: azores acores
mexico jalisco: jalisco zapopan
mexico: monterrey
mexico: cdmx puebla queretaro oaxaca veracruz chihuahua sonora hermosillo sinaloa culiacan yucatan toluca
mexico california: tijuana mexicali ensenada
mexico quintana roo: cancun
chile: valparaiso concepcion antofagasta temuco rancagua talca arica iquique coquimbo osorno valdivia
`;

const CONTAINING: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const line of CONTAINMENT.trim().split('\n')) {
    const [containers, places] = line.split(':');
    const up = containers!.trim().split(/\s+/);
    for (const place of places!.trim().split(/\s+/))
      map.set(place, [...new Set([...(map.get(place) ?? []), ...up.filter((w) => w !== place)])]);
  }
  return map;
})();

/**
 * The words naming the places that contain the place a word names ("palma" → baleares, balear); empty for other
 * words. The word is given lower case with its accents folded.
 */
export function containingPlaces(folded: string): readonly string[] {
  return CONTAINING.get(folded) ?? [];
}
