// The sales agent: one customer message in, one checked answer out. Order of work per message:
// understand (intent) -> answer from catalog / quote / documents (deterministic draft) ->
// optional external wording (checked, else the draft) -> brand tactics (rules 5, 6) ->
// brand style (rule 3) -> final figure check (rule 4) -> answer. The brand is read through a
// BrandProvider that never rejects (rule 7), so every message gets an answer.
import { brandApplies, ownDescription, type AgentBrand } from './brand.js';
import { knownCities, shippingCost, type Product } from './catalog.js';
import type { LeadsConfig } from './config.js';
import { checkFigures, dropUnbackedSentences, factsFrom, type FigureViolation } from './figures.js';
import type { AgentDeps, AgentEvent, TurnInput, TurnResult, WordingRequest } from './ports.js';
import { analyze, type Analysis } from './intent.js';
import { addToQuote, computeQuote, removeFromQuote } from './quote.js';
import * as R from './replies.js';
import type { ConversationState } from './state.js';
import { applyEmojiRules, fitLines, toPlainText } from './style.js';
import { asksForCity, closingQuestion, comboSuggestion, type AnswerKind } from './tactics.js';
import { brandDescription, presentation as introduce, shopName } from './identity.js';
import { fold } from './text.js';
import { withTimeout } from './timeout.js';
import { toUsted } from './voice.js';

interface Draft {
  text: string;
  kind: AnswerKind;
  product: Product | null;
  esperando: ConversationState['esperando'];
}

interface TurnContext {
  espacio: string;
  mensaje: string;
  analysis: Analysis;
  products: readonly Product[];
  state: ConversationState;
  config: LeadsConfig;
  presentation: string;
  descripcion: string;
}

export class SalesAgent {
  private readonly timeoutMs: number;

  constructor(private readonly deps: AgentDeps) {
    this.timeoutMs = deps.timeoutMs ?? 10_000;
  }

  /**
   * Answers one customer message. Never rejects (rule 7: a conversation is never left without an
   * answer): an unexpected internal error is reported through `onEvent` and answered with a safe text.
   */
  async reply(input: TurnInput): Promise<TurnResult> {
    try {
      return await this.turn(input);
    } catch (err) {
      this.emit({
        tipo: 'error_interno',
        espacio: input.espacio,
        mensaje: err instanceof Error ? err.message : String(err),
      });
      const state = { ...structuredClone(input.state), turno: input.state.turno + 1 };
      const silent = state.estado === 'derivada';
      return {
        state,
        respuesta: silent ? null : R.TEXTS.safe,
        tipo: silent ? null : 'aclaracion',
        marca: { aplicada: false, origen: 'no_aplica' },
        descripcion: ownDescription(shopName(input.espacio, input.config.nombre_tienda, null)),
        suggestedCombo: null,
        closingPrompt: null,
        correcciones: [],
        redaccion: 'plantilla',
      };
    }
  }

  private async turn(input: TurnInput): Promise<TurnResult> {
    const state: ConversationState = structuredClone(input.state);
    state.turno += 1;
    const wantsBrand = input.brandEnabled && input.config.marca_activa;
    const [products, brandInfo] = await Promise.all([
      this.loadCatalog(input.espacio),
      wantsBrand
        ? this.deps.brands.get(input.espacio).catch(() => ({ brand: null, origen: 'ninguna' as const }))
        : Promise.resolve(null),
    ]);
    if (brandInfo && brandInfo.origen !== 'fresca' && brandInfo.origen !== 'cache') {
      this.emit({ tipo: 'marca_no_disponible', espacio: input.espacio, origen: brandInfo.origen });
    }
    const brand = brandInfo?.brand ?? null;
    const applies = brandApplies(input.brandEnabled, input.config.marca_activa, brand);
    const shop = shopName(input.espacio, input.config.nombre_tienda, applies ? brand : null);
    const descripcion = applies ? brandDescription(brand, shop) : ownDescription(shop);
    const base = {
      marca: { aplicada: applies, origen: wantsBrand ? brandInfo!.origen : ('no_aplica' as const) },
      descripcion,
      suggestedCombo: null,
      closingPrompt: null,
      correcciones: [],
      redaccion: 'plantilla' as const,
    };
    if (state.estado === 'derivada') return { ...base, state, respuesta: null, tipo: null };

    const analysis = analyze(input.mensaje, products, { expectingCity: state.esperando === 'ciudad' });
    if (analysis.city !== null) state.ciudad = analysis.city;
    const presentation = introduce(applies ? brand : null, shop);
    const ctx: TurnContext = {
      espacio: input.espacio,
      mensaje: input.mensaje,
      analysis,
      products,
      state,
      config: input.config,
      presentation,
      descripcion,
    };
    const draft = await this.compose(ctx);
    if (
      analysis.intents.includes('saludo') &&
      draft.kind !== 'saludo' &&
      draft.kind !== 'derivacion' &&
      !state.saludado
    ) {
      draft.text = `¡Hola! ${presentation} ${draft.text}`;
    }
    if (analysis.intents.includes('saludo') || draft.kind === 'saludo') state.saludado = true;
    state.esperando = draft.esperando;
    if (draft.product) state.ultimoProducto = draft.product.id;
    if (applies && brand.estilo.tono.includes('formal') && draft.kind !== 'conocimiento')
      draft.text = toUsted(draft.text);

    const facts = factsFrom(products, computeQuote(state.cotizacion, products, state.ciudad));
    const correcciones: FigureViolation[] = [];
    let text = draft.text;
    let redaccion: TurnResult['redaccion'] = 'plantilla';
    if (this.deps.wording && draft.kind !== 'derivacion') {
      const worded = await this.reword(input.espacio, {
        descripcion,
        mensaje: input.mensaje,
        borrador: draft.text,
        tipo: draft.kind,
      });
      if (worded !== null) {
        const violations = checkFigures(worded, facts);
        if (violations.length === 0) {
          text = worded;
          redaccion = 'externa';
        } else {
          // Replaced, never sent: the draft says the same with the catalog's figures.
          correcciones.push(...violations);
          this.emit({ tipo: 'cifra_corregida', espacio: input.espacio, violaciones: violations, fuente: 'redaccion' });
        }
      }
    }

    const extras: string[] = [];
    let suggestedCombo: string | null = null;
    let closingPrompt: string | null = null;
    if (applies) {
      const tstate = {
        turno: state.turno,
        combosSugeridos: state.combosSugeridos,
        ultimoComboTurno: state.ultimoComboTurno,
        indiceCierre: state.indiceCierre,
        ciudad: state.ciudad,
      };
      const combo = comboSuggestion({
        answer: text,
        kind: draft.kind,
        product: draft.product,
        catalog: products,
        state: tstate,
        tacticas: brand.tacticas,
        gap: input.config.mensajes_entre_combos,
      });
      if (combo) {
        extras.push(combo.text);
        suggestedCombo = combo.combo;
        state.combosSugeridos = [...state.combosSugeridos, fold(combo.combo)];
        state.ultimoComboTurno = state.turno;
      }
      const closing = closingQuestion([text, ...extras].join(' '), draft.kind, tstate, brand.tacticas);
      if (closing) {
        extras.push(closing.text);
        closingPrompt = closing.text;
        state.indiceCierre = closing.nextIndex;
        if (asksForCity(closing.text)) state.esperando = 'ciudad';
      }
    }

    let final = applies ? this.styled(text, extras, brand) : [text, ...extras].join('\n');
    const late = checkFigures(final, facts);
    if (late.length > 0) {
      correcciones.push(...late);
      this.emit({ tipo: 'cifra_corregida', espacio: input.espacio, violaciones: late, fuente: 'respuesta' });
      final = dropUnbackedSentences(final, facts) ?? R.TEXTS.safe;
    }
    return {
      ...base,
      state,
      respuesta: final,
      tipo: draft.kind,
      suggestedCombo,
      closingPrompt,
      correcciones,
      redaccion,
    };
  }

  private styled(text: string, extras: string[], brand: AgentBrand): string {
    const plain = (t: string) => (brand.estilo.solo_texto_plano ? toPlainText(t) : t);
    const fitted = fitLines(plain(text), extras.map(plain), brand.estilo.max_lineas);
    return applyEmojiRules(fitted, brand.estilo.emojis_permitidos, brand.estilo.emojis_obligatorios);
  }

  private emit(event: AgentEvent): void {
    try {
      this.deps.onEvent?.(event);
    } catch {
      /* a broken listener must not cost the customer an answer */
    }
  }

  private async loadCatalog(espacio: string): Promise<readonly Product[]> {
    try {
      return await this.deps.catalog.products(espacio);
    } catch {
      this.emit({ tipo: 'fuente_fallo', espacio, fuente: 'catalogo' });
      return [];
    }
  }

  private async reword(espacio: string, request: WordingRequest): Promise<string | null> {
    try {
      const out = (await withTimeout(this.deps.wording!.reword(request), this.timeoutMs)).trim();
      return out === '' ? null : out;
    } catch {
      this.emit({ tipo: 'fuente_fallo', espacio, fuente: 'redaccion' });
      return null;
    }
  }

  private async fromDocuments(ctx: TurnContext): Promise<string | null> {
    try {
      const text = await withTimeout(
        this.deps.knowledge.answer({ espacio: ctx.espacio, pregunta: ctx.mensaje, descripcion: ctx.descripcion }),
        this.timeoutMs,
      );
      return text && text.trim() !== '' ? text.trim() : null;
    } catch {
      this.emit({ tipo: 'fuente_fallo', espacio: ctx.espacio, fuente: 'conocimiento' });
      return null;
    }
  }

  /** The product the message is about: named now, or the one talked about before. */
  private target(ctx: TurnContext): { product: Product | null; options: Product[] } {
    const m = ctx.analysis.product;
    if (m)
      return m.products.length === 1 ? { product: m.products[0], options: [] } : { product: null, options: m.products };
    const last = ctx.products.find((p) => p.id === ctx.state.ultimoProducto) ?? null;
    return { product: last, options: [] };
  }

  private async compose(ctx: TurnContext): Promise<Draft> {
    const { analysis, state } = ctx;
    const draft = (
      text: string,
      kind: AnswerKind,
      product: Product | null = null,
      esperando: Draft['esperando'] = null,
    ): Draft => ({ text, kind, product, esperando });
    if (analysis.primary !== 'otro') state.fallosSeguidos = 0;
    switch (analysis.primary) {
      case 'humano':
        return this.handOff(state, 'pedido');
      case 'quitar':
        return this.removeItems(ctx);
      case 'cotizar':
        return this.addItems(ctx);
      case 'ver_cotizacion':
        return draft(R.quoteSummary(computeQuote(state.cotizacion, ctx.products, state.ciudad)), 'cotizacion');
      case 'envio':
        return this.shipping(ctx);
      case 'stock':
      case 'precio':
      case 'producto': {
        const about = (p: Product) =>
          analysis.primary === 'precio'
            ? R.priceInfo(p)
            : analysis.primary === 'stock'
              ? R.stockSentence(p)
              : R.productInfo(p);
        const several = [
          ...new Map(
            analysis.items
              .filter((i) => i.match.products.length === 1)
              .map((i) => [i.match.products[0].id, i.match.products[0]]),
          ).values(),
        ];
        if (several.length > 1) {
          // "¿cuánto cuestan las zapatillas y las medias?": one line each; no single product, so no combo.
          state.ultimoProducto = several[several.length - 1].id;
          return draft(several.map(about).join('\n'), 'producto');
        }
        const { product, options } = this.target(ctx);
        if (options.length > 0) return draft(R.whichOne(options), 'aclaracion', null, 'producto');
        if (!product) {
          const ask = analysis.primary === 'precio' ? R.TEXTS.askProductForPrice : R.TEXTS.askProductForStock;
          return draft(ask, 'aclaracion', null, 'producto');
        }
        return draft(about(product), 'producto', product);
      }
      case 'catalogo':
        return draft(R.catalogList(ctx.products), 'catalogo');
      case 'ciudad':
        return this.cityGiven(ctx);
      case 'despedida':
        return draft(R.TEXTS.goodbye, 'despedida');
      case 'saludo':
        return draft(state.saludado ? R.TEXTS.greetAgain : R.greeting(ctx.presentation), 'saludo');
      default:
        return this.otherQuestion(ctx);
    }
  }

  private handOff(state: ConversationState, motivo: 'pedido' | 'sin_respuesta'): Draft {
    state.estado = 'derivada';
    state.motivoDerivacion = motivo;
    return { text: R.TEXTS.handoff, kind: 'derivacion', product: null, esperando: null };
  }

  private async otherQuestion(ctx: TurnContext): Promise<Draft> {
    const answer = await this.fromDocuments(ctx);
    if (answer !== null) {
      ctx.state.fallosSeguidos = 0;
      return { text: answer, kind: 'conocimiento', product: null, esperando: null };
    }
    ctx.state.fallosSeguidos += 1;
    if (ctx.state.fallosSeguidos >= ctx.config.derivar_tras_fallos) return this.handOff(ctx.state, 'sin_respuesta');
    return { text: R.TEXTS.notFound, kind: 'aclaracion', product: null, esperando: 'producto' };
  }

  private quoteText(ctx: TurnContext): string {
    return R.quoteSummary(computeQuote(ctx.state.cotizacion, ctx.products, ctx.state.ciudad));
  }

  private addItems(ctx: TurnContext): Draft {
    const { analysis, state, products } = ctx;
    let items = analysis.items.map((i) => ({ products: i.match.products, cantidad: i.cantidad }));
    if (items.length === 0) {
      const last = products.find((p) => p.id === state.ultimoProducto);
      if (last && (analysis.cantidad !== null || state.cotizacion.every((l) => l.productId !== last.id))) {
        items = [{ products: [last], cantidad: analysis.cantidad ?? 1 }];
      } else if (state.cotizacion.length > 0) {
        return { text: this.quoteText(ctx), kind: 'cotizacion', product: null, esperando: null };
      } else {
        return { text: R.TEXTS.askProductForQuote, kind: 'aclaracion', product: null, esperando: 'producto' };
      }
    }
    const ambiguous = items.find((i) => i.products.length > 1);
    if (ambiguous)
      return { text: R.whichOne(ambiguous.products), kind: 'aclaracion', product: null, esperando: 'producto' };
    const notes: string[] = [];
    const addedItems: { product: Product; cantidad: number }[] = [];
    let lastProduct: Product | null = null;
    for (const item of items) {
      const p = item.products[0];
      lastProduct = p;
      if (item.cantidad <= 0) continue;
      const r = addToQuote(state.cotizacion, products, p, item.cantidad);
      if (r.ok) {
        state.cotizacion = r.lines;
        addedItems.push({ product: p, cantidad: item.cantidad });
      } else if (r.motivo === 'agotado') notes.push(R.outOfStockForQuote(p));
      else if (r.motivo === 'stock_insuficiente') notes.push(R.notEnoughStock(p, r.yaCotizado));
      else notes.push(R.currencyMismatch(p, r.monedaCotizacion));
    }
    if (addedItems.length > 0) notes.unshift(R.added(addedItems));
    const summary = state.cotizacion.length > 0 ? `\n${this.quoteText(ctx)}` : '';
    return { text: notes.join(' ') + summary, kind: 'cotizacion', product: lastProduct, esperando: null };
  }

  private removeItems(ctx: TurnContext): Draft {
    const notes: string[] = [];
    for (const item of ctx.analysis.items) {
      if (item.match.products.length > 1) {
        const quoted = item.match.products.filter((p) => ctx.state.cotizacion.some((l) => l.productId === p.id));
        if (quoted.length !== 1)
          return { text: R.whichOne(item.match.products), kind: 'aclaracion', product: null, esperando: 'producto' };
        item.match.products = quoted;
      }
      const p = item.match.products[0];
      if (!ctx.state.cotizacion.some((l) => l.productId === p.id)) {
        notes.push(R.notInQuote(p));
        continue;
      }
      ctx.state.cotizacion = removeFromQuote(ctx.state.cotizacion, p.id);
      notes.push(R.removed(p));
    }
    return { text: `${notes.join(' ')}\n${this.quoteText(ctx)}`, kind: 'cotizacion', product: null, esperando: null };
  }

  private shipping(ctx: TurnContext): Draft {
    const { state, products } = ctx;
    const city = state.ciudad;
    const { product, options } = this.target(ctx);
    if (options.length > 0)
      return { text: R.whichOne(options), kind: 'aclaracion', product: null, esperando: 'producto' };
    if (city === null) return { text: R.TEXTS.askCity, kind: 'envio', product, esperando: 'ciudad' };
    if (ctx.analysis.product === null && state.cotizacion.length > 0) {
      return { text: this.quoteText(ctx), kind: 'cotizacion', product: null, esperando: null };
    }
    if (product)
      return {
        text: R.shippingInfo(product, city, shippingCost(product, city)),
        kind: 'envio',
        product,
        esperando: null,
      };
    const cities = knownCities(products);
    const ships = cities.some((c) => fold(c) === fold(city));
    const text = ships
      ? `Sí, hacemos envíos a ${city}; el costo depende del producto.`
      : `Por ahora no hacemos envíos a ${city}.`;
    return {
      text: cities.length === 0 ? R.shippingCities(cities) : text,
      kind: 'envio',
      product: null,
      esperando: null,
    };
  }

  private cityGiven(ctx: TurnContext): Draft {
    const { state, products } = ctx;
    const city = state.ciudad!;
    const noted = R.cityNoted(city);
    if (state.cotizacion.length > 0)
      return { text: `${noted}\n${this.quoteText(ctx)}`, kind: 'ciudad', product: null, esperando: null };
    const last = products.find((p) => p.id === state.ultimoProducto);
    if (last)
      return {
        text: `${noted} ${R.shippingInfo(last, city, shippingCost(last, city))}`,
        kind: 'ciudad',
        product: null,
        esperando: null,
      };
    return { text: noted, kind: 'ciudad', product: null, esperando: null };
  }
}

/** Puts a conversation handed to a person back in the agent's hands (e.g. when the person closes it). */
export function resumeConversation(state: ConversationState): ConversationState {
  return { ...structuredClone(state), estado: 'activa', motivoDerivacion: null, fallosSeguidos: 0 };
}
