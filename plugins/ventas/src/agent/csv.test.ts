import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCatalogCsv } from './csv.js';

test('imports a comma CSV with quotes, escaped quotes, newlines in cells and shipping per city', () => {
  const csv = [
    'id,nombre,descripcion,precio,moneda,stock,envio',
    'zap,Zapatillas Runner,"Livianas, para ""correr""",250000,COP,3,Bogotá=10000|Medellín:12000',
    'gor,Gorra,"Con visera',
    'y protección UV",30000,cop,0,',
  ].join('\r\n');
  const r = parseCatalogCsv(csv);
  assert.deepEqual(r.errores, []);
  assert.deepEqual(r.productos[0], {
    id: 'zap',
    nombre: 'Zapatillas Runner',
    descripcion: 'Livianas, para "correr"',
    precio: 250000,
    moneda: 'COP',
    stock: 3,
    envio: { Bogotá: 10000, Medellín: 12000 },
  });
  assert.equal(r.productos[1].descripcion, 'Con visera\ny protección UV');
  assert.equal(r.productos[1].moneda, 'COP');
  assert.equal(r.productos[1].envio, undefined);
});

test('a Spanish spreadsheet export: BOM, semicolons, decimal commas, header in any order and case', () => {
  const csv =
    '\uFEFFNombre;ID;Precio;Moneda;Stock;Descripción\nCamiseta;cam;12,50;EUR;4;Algodón\nTaza;taz;1.250,00;EUR;10;\n';
  const r = parseCatalogCsv(csv);
  assert.deepEqual(r.errores, []);
  assert.deepEqual(
    r.productos.map((p) => [p.id, p.precio]),
    [
      ['cam', 12.5],
      ['taz', 1250],
    ],
  );
});

test('every bad line is reported with its number; good lines still come back', () => {
  const csv = [
    'id,nombre,precio,moneda,stock,envio',
    'a,Uno,100,COP,1,', // 2 ok
    'b,,100,COP,1,', // 3 no name
    'c,Tres,barato,COP,1,', // 4 bad price
    'a,Repetido,100,COP,1,', // 5 duplicate id
    'd,Cuatro,100,pesos,1.5,', // 6 bad currency and stock
    'e,Cinco,100,COP,1,Cali', // 7 bad shipping
    'f,Seis,100,COP', // 8 column count
    '', // blank lines are ignored
    'g,Siete,100,COP,2,', // 10 ok
  ].join('\n');
  const r = parseCatalogCsv(csv);
  assert.deepEqual(
    r.productos.map((p) => p.id),
    ['a', 'g'],
  );
  assert.deepEqual(
    r.errores.map((e) => e.linea),
    [3, 4, 5, 6, 7, 8],
  );
  assert.match(r.errores[0].mensaje, /^nombre: /);
  assert.match(r.errores[1].mensaje, /^precio: /);
  assert.match(r.errores[2].mensaje, /repetido \(ya en la línea 2\)/);
  assert.match(r.errores[3].mensaje, /moneda: .*; stock: /);
  assert.match(r.errores[4].mensaje, /ciudad=costo/);
  assert.match(r.errores[5].mensaje, /tiene 4 columnas y el encabezado 6/);
});

test('header problems and empty files are reported on their line', () => {
  assert.deepEqual(parseCatalogCsv('').errores, [{ linea: 1, mensaje: 'el archivo está vacío' }]);
  const r = parseCatalogCsv('id,nombre,color\na,b,c');
  assert.equal(r.errores[0].linea, 1);
  assert.match(r.errores[0].mensaje, /faltan columnas: precio, moneda, stock; columnas desconocidas: color/);
  assert.equal(
    parseCatalogCsv('id,nombre,precio,moneda,stock\n"a,b,1,COP,1').errores[0].mensaje,
    'comillas sin cerrar',
  );
});
