import { parseScaled } from './seed-format';

/** How an item is sold: by unit, by weight (kg, 4 decimals) or loose in dozens (4-decimal price). */
type ItemKind = 'unit' | 'weighed' | 'bulk';

export interface CatalogItem {
  code: string;
  description: string;
  /** Tax-inclusive unit price in ten-thousandths of the currency unit. */
  priceE4: number;
  /** Percent: 21, 10 or 4. */
  taxRate: number;
  kind: ItemKind;
  /** Relative popularity. */
  weight: number;
}

type ItemSource = [
  description: string,
  price: string,
  taxRate: number,
  kind: ItemKind,
  weight: number,
];

const ITEMS: ItemSource[] = [
  ['Pan de barra 250 g', '0.95', 4, 'unit', 10],
  ['Leche entera 1 L', '1.05', 4, 'unit', 9],
  ['Huevos frescos L docena', '2.85', 4, 'unit', 6],
  ['Manzana Golden (kg)', '2.49', 4, 'weighed', 6],
  ['Plátano de Canarias (kg)', '2.89', 4, 'weighed', 6],
  ['Tomate pera (kg)', '2.19', 4, 'weighed', 5],
  ['Patata nueva (kg)', '1.35', 4, 'weighed', 4],
  ['Naranja de mesa (kg)', '1.79', 4, 'weighed', 4],
  ['Queso manchego curado (kg)', '18.95', 4, 'weighed', 2],
  ['Arroz redondo 1 kg', '1.39', 4, 'unit', 3],
  ['Harina de trigo 1 kg', '0.89', 4, 'unit', 2],
  ['Agua mineral 1,5 L', '0.55', 10, 'unit', 8],
  ['Café molido natural 250 g', '3.49', 10, 'unit', 4],
  ['Jamón serrano loncheado 100 g', '2.99', 10, 'unit', 4],
  ['Pechuga de pollo (kg)', '7.49', 10, 'weighed', 3],
  ['Merluza fresca (kg)', '12.90', 10, 'weighed', 2],
  ['Yogur natural pack 4', '1.45', 10, 'unit', 5],
  ['Galletas María 800 g', '1.89', 10, 'unit', 3],
  ['Chocolate negro 70% 100 g', '1.65', 10, 'unit', 3],
  ['Zumo de naranja 1 L', '1.99', 10, 'unit', 3],
  ['Bocadillo de tortilla', '3.50', 10, 'unit', 2],
  ['Cápsulas de café x10', '3.19', 10, 'unit', 2],
  ['Cerveza lata 33 cl', '0.79', 21, 'unit', 6],
  ['Vino tinto Rioja crianza 75 cl', '7.95', 21, 'unit', 2],
  ['Detergente líquido 40 lavados', '9.99', 21, 'unit', 2],
  ['Papel higiénico 12 rollos', '4.75', 21, 'unit', 3],
  ['Gel de ducha 750 ml', '2.35', 21, 'unit', 2],
  ['Pasta de dientes 75 ml', '1.99', 21, 'unit', 2],
  ['Lejía 2 L', '1.15', 21, 'unit', 2],
  ['Bolsa de papel', '0.10', 21, 'unit', 4],
  ['Pilas alcalinas AA pack 4', '3.99', 21, 'unit', 1],
  ['Bombilla LED E27 9 W', '4.49', 21, 'unit', 1],
  ['Cuaderno A4 cuadrícula', '2.25', 21, 'unit', 1],
  ['Sartén antiadherente 24 cm', '19.95', 21, 'unit', 0.4],
  ['Cargador USB-C 20 W', '14.99', 21, 'unit', 0.5],
  ['Auriculares inalámbricos', '39.90', 21, 'unit', 0.3],
  ['Tornillo 4x40 mm (unidad)', '0.0850', 21, 'bulk', 0.6],
  ['Alcayata 3 mm (unidad)', '0.1275', 21, 'bulk', 0.4],
];

export const CATALOG: readonly CatalogItem[] = ITEMS.map(
  ([description, price, taxRate, kind, weight], index) => ({
    code: ean13(`8437000${String(10001 + index * 7).padStart(5, '0')}`),
    description,
    priceE4: parseScaled(price, 4),
    taxRate,
    kind,
    weight,
  }),
);

export type Language = 'es' | 'pt';

export interface Place {
  name: string;
  timeZone: string;
  language: Language;
}

const MADRID = [
  'Madrid Chamberí',
  'Madrid Salamanca',
  'Barcelona Gràcia',
  'Barcelona Eixample',
  'Valencia Ruzafa',
  'Sevilla Triana',
  'Bilbao Abando',
  'Zaragoza Delicias',
  'Málaga Centro',
  'Palma Santa Catalina',
  'Alicante San Juan',
  'Granada Realejo',
  'Murcia Centro',
  'Valladolid Zorrilla',
  'A Coruña Riazor',
  'San Sebastián Gros',
];
const LISBON = [
  'Lisboa Chiado',
  'Lisboa Alvalade',
  'Porto Boavista',
  'Braga Centro',
  'Coimbra Baixa',
  'Faro Marina',
  'Aveiro Glicínias',
];
const CANARY = [
  'Las Palmas Triana',
  'Las Palmas Mesa y López',
  'Santa Cruz de Tenerife',
  'La Laguna',
  'Arrecife',
  'Puerto del Rosario',
  'Costa Adeje',
];

export const PLACES: readonly Place[] = [
  ...MADRID.map((name) => ({ name, timeZone: 'Europe/Madrid', language: 'es' as const })),
  ...LISBON.map((name) => ({ name, timeZone: 'Europe/Lisbon', language: 'pt' as const })),
  ...CANARY.map((name) => ({ name, timeZone: 'Atlantic/Canary', language: 'es' as const })),
];

export const SHOP_BRAND = 'Mercado Sol';

export const CASH_DROP_REASON = 'Retirada a caja fuerte';
export const PETTY_CASH_REASONS = [
  'Gastos: productos de limpieza',
  'Gastos: mensajería',
  'Gastos: material de oficina',
  'Gastos: café para el personal',
] as const;
export const CASH_IN_REASONS = ['Reposición de cambio', 'Fondo adicional de cambio'] as const;

/** Appends the GS1 check digit to 12 digits. */
function ean13(stem: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(stem[i]) * (i % 2 === 0 ? 1 : 3);
  return `${stem}${(10 - (sum % 10)) % 10}`;
}
