// Shared test fixtures: a small sports-shop catalog, a configured brand and a harness that
// drives the agent message by message with a controllable brand source and clock.
import { SalesAgent } from './agent.js';
import type { AgentDeps, TurnResult } from './ports.js';
import { BrandCache, type AgentBrand, type Clock } from './brand.js';
import type { Product } from './catalog.js';
import { defaultLeadsConfig, type LeadsConfig } from './config.js';
import { newConversationState, type ConversationState } from './state.js';

export function catalog(): Product[] {
  return [
    {
      id: 'zap-run',
      nombre: 'Zapatillas Runner',
      descripcion: 'Zapatillas livianas para correr',
      precio: 250000,
      moneda: 'COP',
      stock: 3,
      envio: { Bogotá: 10000, Medellín: 12000 },
    },
    {
      id: 'cam-roja',
      nombre: 'Camiseta roja',
      descripcion: 'Camiseta deportiva de algodón',
      precio: 45000,
      moneda: 'COP',
      stock: 5,
      envio: { Bogotá: 8000 },
    },
    {
      id: 'cam-azul',
      nombre: 'Camiseta azul',
      descripcion: 'Camiseta deportiva azul',
      precio: 45000,
      moneda: 'COP',
      stock: 0,
      envio: { Bogotá: 8000 },
    },
    {
      id: 'medias',
      nombre: 'Medias deportivas',
      descripcion: 'Pack de tres pares',
      precio: 15000,
      moneda: 'COP',
      stock: 40,
      envio: { Bogotá: 5000 },
    },
    { id: 'gorra', nombre: 'Gorra trail', descripcion: 'Gorra con visera', precio: 30000, moneda: 'COP', stock: 0 },
  ];
}

export const PERSONA =
  'Eres Sofía, asesora de ventas de Deportes Ruiz.\nReglas que siempre cumples: No inventes precios.';

export function brand(
  overrides: {
    activo?: boolean;
    estilo?: Partial<AgentBrand['estilo']>;
    tacticas?: Partial<AgentBrand['tacticas']>;
  } = {},
): AgentBrand {
  return {
    name: 'Deportes Ruiz',
    activo: overrides.activo ?? true,
    identidad: { nombre_agente: 'Sofía', rol: 'asesora de ventas', linea: '' },
    estilo: {
      tono: ['cercano'],
      rasgos: ['servicial'],
      emojis_permitidos: [],
      emojis_obligatorios: [],
      max_lineas: 6,
      solo_texto_plano: true,
      ...overrides.estilo,
    },
    tacticas: {
      upsell_activo: true,
      upsell_combos: { zapatillas: 'el kit Runner con medias', gorra: 'el combo Sol' },
      upsell_argumento: 'Así proteges tus pies desde el primer día.',
      upsell_plantilla: 'Te recomiendo sumar {combo}. {argumento}',
      pregunta_cierre_obligatoria: true,
      preguntas_cierre: ['¿A qué ciudad te lo enviamos?', '¿Quieres que te prepare una cotización?'],
      ...overrides.tacticas,
    },
    persona: PERSONA,
  };
}

export class FakeClock implements Clock {
  constructor(public ms = 1_000_000) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** Brand source under test control: returns `current`, or fails / hangs on demand. */
export class FakeBrandSource {
  mode: 'ok' | 'error' | 'hang' = 'ok';
  calls = 0;
  constructor(public current: AgentBrand) {}
  fetch(): Promise<AgentBrand> {
    this.calls++;
    if (this.mode === 'error') return Promise.reject(new Error('marca caída'));
    if (this.mode === 'hang') return new Promise<AgentBrand>(() => undefined);
    return Promise.resolve(structuredClone(this.current));
  }
}

export interface HarnessOptions {
  brand?: AgentBrand;
  config?: Partial<LeadsConfig>;
  brandEnabled?: boolean;
  products?: Product[];
  knowledge?: (pregunta: string) => string | null;
  deps?: Partial<AgentDeps>;
}

/** One conversation with the agent: `say` sends a message and keeps the state. */
export class Conversation {
  readonly clock = new FakeClock();
  readonly source: FakeBrandSource;
  readonly agent: SalesAgent;
  state: ConversationState = newConversationState();
  config: LeadsConfig;
  brandEnabled: boolean;
  products: Product[];

  constructor(options: HarnessOptions = {}) {
    this.source = new FakeBrandSource(options.brand ?? brand());
    this.config = { ...defaultLeadsConfig(), marca_activa: true, mensajes_entre_combos: 2, ...options.config };
    this.brandEnabled = options.brandEnabled ?? true;
    this.products = options.products ?? catalog();
    const knowledge = options.knowledge ?? (() => null);
    this.agent = new SalesAgent({
      catalog: { products: () => this.products },
      knowledge: { answer: async ({ pregunta }) => knowledge(pregunta) },
      brands: new BrandCache(this.source, this.clock, { ttlMs: 30_000, timeoutMs: 20 }),
      ...options.deps,
    });
  }

  async say(mensaje: string): Promise<TurnResult> {
    const result = await this.agent.reply({
      espacio: 'deportes-ruiz',
      mensaje,
      state: this.state,
      config: this.config,
      brandEnabled: this.brandEnabled,
    });
    this.state = result.state;
    return result;
  }
}
