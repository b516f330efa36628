// Writes a tiny but real ONNX model for tests: token ids → Gather from an embedding table → token states
// [batch, seq, dim]. Encoded with a minimal protobuf writer (ModelProto, onnx.proto3 field numbers).

const varint = (n: number | bigint): number[] => {
  let v = BigInt(n);
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
};

type Field = [number, 'varint', number | bigint] | [number, 'bytes', Uint8Array | string | Field[]];

function encode(fields: Field[]): Uint8Array {
  const parts: number[] = [];
  for (const [num, kind, value] of fields) {
    if (kind === 'varint') {
      parts.push(...varint((num << 3) | 0), ...varint(value));
      continue;
    }
    const bytes =
      typeof value === 'string' ? Buffer.from(value, 'utf8') : value instanceof Uint8Array ? value : encode(value);
    parts.push(...varint((num << 3) | 2), ...varint(bytes.length), ...bytes);
  }
  return Uint8Array.from(parts);
}

const FLOAT = 1;
const INT64 = 7;

const valueInfo = (name: string, elemType: number, dims: (number | string)[]): Field[] => [
  [1, 'bytes', name],
  [
    2,
    'bytes',
    [
      [
        1,
        'bytes',
        [
          [1, 'varint', elemType],
          [
            2,
            'bytes',
            dims.map((d): Field => [1, 'bytes', typeof d === 'number' ? [[1, 'varint', d]] : [[2, 'bytes', d]]]),
          ],
        ],
      ],
    ],
  ],
];

/** An ONNX model whose token state for token id i is row i of `table`; `attention_mask` is declared as BERT's. */
export function embeddingTableModel(table: Float32Array[]): Uint8Array {
  const dim = table[0]!.length;
  const raw = new Float32Array(table.length * dim);
  table.forEach((row, i) => raw.set(row, i * dim));
  const initializer: Field[] = [
    [1, 'varint', table.length],
    [1, 'varint', dim],
    [2, 'varint', FLOAT],
    [8, 'bytes', 'table'],
    [9, 'bytes', new Uint8Array(raw.buffer)],
  ];
  const node: Field[] = [
    [1, 'bytes', 'table'],
    [1, 'bytes', 'input_ids'],
    [2, 'bytes', 'last_hidden_state'],
    [3, 'bytes', 'lookup'],
    [4, 'bytes', 'Gather'],
  ];
  const graph: Field[] = [
    [1, 'bytes', node],
    [2, 'bytes', 'tiny-embedder'],
    [5, 'bytes', initializer],
    [11, 'bytes', valueInfo('input_ids', INT64, ['batch', 'seq'])],
    [11, 'bytes', valueInfo('attention_mask', INT64, ['batch', 'seq'])],
    [12, 'bytes', valueInfo('last_hidden_state', FLOAT, ['batch', 'seq', dim])],
  ];
  return encode([
    [1, 'varint', 8],
    [2, 'bytes', 'cerebro-tests'],
    [7, 'bytes', graph],
    [
      8,
      'bytes',
      [
        [1, 'bytes', ''],
        [2, 'varint', 13],
      ],
    ],
  ]);
}

/**
 * A tiny cross-encoder: the logit of a token sequence is the sum of its tokens' weights (`weights[id]`), output
 * `logits` [batch, 1] like a Hugging Face sequence-classification export. Pad tokens should weigh 0.
 */
export function crossEncoderModel(weights: number[]): Uint8Array {
  const raw = Float32Array.from(weights);
  const table: Field[] = [
    [1, 'varint', weights.length],
    [1, 'varint', 1],
    [2, 'varint', FLOAT],
    [8, 'bytes', 'weights'],
    [9, 'bytes', new Uint8Array(raw.buffer)],
  ];
  const axes: Field[] = [
    [1, 'varint', 1],
    [2, 'varint', INT64],
    [8, 'bytes', 'axes'],
    [9, 'bytes', new Uint8Array(BigInt64Array.from([1n]).buffer)],
  ];
  const gather: Field[] = [
    [1, 'bytes', 'weights'],
    [1, 'bytes', 'input_ids'],
    [2, 'bytes', 'token_weights'],
    [3, 'bytes', 'lookup'],
    [4, 'bytes', 'Gather'],
  ];
  const keepdimsOff: Field[] = [
    [1, 'bytes', 'keepdims'],
    [3, 'varint', 0],
    [20, 'varint', 2],
  ];
  const sum: Field[] = [
    [1, 'bytes', 'token_weights'],
    [1, 'bytes', 'axes'],
    [2, 'bytes', 'logits'],
    [3, 'bytes', 'sum'],
    [4, 'bytes', 'ReduceSum'],
    [5, 'bytes', keepdimsOff],
  ];
  const graph: Field[] = [
    [1, 'bytes', gather],
    [1, 'bytes', sum],
    [2, 'bytes', 'tiny-cross-encoder'],
    [5, 'bytes', table],
    [5, 'bytes', axes],
    [11, 'bytes', valueInfo('input_ids', INT64, ['batch', 'seq'])],
    [11, 'bytes', valueInfo('attention_mask', INT64, ['batch', 'seq'])],
    [11, 'bytes', valueInfo('token_type_ids', INT64, ['batch', 'seq'])],
    [12, 'bytes', valueInfo('logits', FLOAT, ['batch', 1])],
  ];
  return encode([
    [1, 'varint', 8],
    [2, 'bytes', 'cerebro-tests'],
    [7, 'bytes', graph],
    [
      8,
      'bytes',
      [
        [1, 'bytes', ''],
        [2, 'varint', 13],
      ],
    ],
  ]);
}
