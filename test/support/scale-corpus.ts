/**
 * The synthetic corpus of issues 22 and 24: people doing things with objects in places, at any size, with questions
 * that each have exactly one right memory. Built for scale: the same people, objects and places come back again and
 * again, so at a million memories each full name occurs about a hundred times (a hundred first names times a hundred
 * last names), and every object and city tens of thousands of times.
 *
 * Memory i depends only on (seed, i), not on the corpus size, so a corpus of 100,000 is the first 100,000 of a
 * million, and the questions (whose right memories are among the first 100,000) are the same at both sizes. No other
 * memory shares a question's key with its right memory (a memory that would is drawn again), so each question has
 * one right answer at every size.
 */
import { seededRandom } from '../../src/core/random.js';

const FIRST =
  'Anouk Bruno Chiara Dmitri Elif Femi Greta Hamid Ingrid Jonas Keiko Lars Marisol Nikhil Oona Pavel Quinn Rania Soren Tamsin Ugo Vera Wiktor Xiomara Yannick Zofia Amaru Beatrix Cosmin Delphine Emeka Freya Gustavo Hedda Ilkka Jovana Kwame Liesel Matteo Nadia Orla Piet Renske Sakura Tobias Ulrike Vasco Wanjiru Xavier Yelena Zoltan Aiko Bram Catalina Dario Esme Fintan Gaia Henrik Isolde Joaquim Kalinda Leandro Maelle Niamh Olaf Pilar Radek Saoirse Teodor Umaima Valter Wren Ximena Yusuf Zelda Anselm Berit Corrado Dagny Eamon Flavia Gunnar Hyacinth Idris Jarmila Kasimir Lucasta Mirko Nerys Oswin Perpetua Rasmus Sunniva Thaddeus Ursel Vilja Wendeline'.split(
    ' ',
  );
const LAST =
  'Holm Abara Bergstrom Castellanos Dufresne Eriksen Fairweather Gallagher Haddad Ivanova Jankowski Kowalczyk Lindqvist Moreau Nakamura Okafor Petrovic Quarshie Rasmussen Szabo Tanaka Uribe Valenti Whitlock Xu Yilmaz Zamora Achterberg Bianchi Cardoso Delacroix Engel Fonseca Grimaldi Hartmann Iversen Jablonski Kovac Laurent Mbeki Novak Oyelaran Pellegrini Quintero Rossi Salazar Thorsen Umarov Vasquez Wojcik Yamada Zielinski Arnaud Brandt Cavalcanti Dimitriou Ekström Ferreira Gutierrez Horvath Ishikawa Janssen Kristiansen Lombardi Marchetti Nieminen Ortega Pacheco Quist Ribeiro Sandoval Tremblay Ulloa Varga Weller Yoshida Zubiri Alcott Baranski Crowther Drummond Esposito Falkner Gorski Hollis Ingram Jaramillo Kessler Lachance Merriweather Nordin Ostrowski Pemberton Rydberg Stavros Tolliver Vukovic Winterbourne Yardley'.split(
    ' ',
  );

/** What a person does to an object, as stored (past) and asked (base), and in other words for paraphrases. */
interface Action {
  base: string;
  past: string;
  otherBase: string;
  otherPast: string;
}
const ACTIONS: Action[] = [
  ['test', 'tested', 'try out', 'tried out'],
  ['buy', 'bought', 'purchase', 'purchased'],
  ['repair', 'repaired', 'fix', 'fixed'],
  ['paint', 'painted', 'colour', 'coloured'],
  ['lose', 'lost', 'misplace', 'misplaced'],
  ['find', 'found', 'discover', 'discovered'],
  ['sell', 'sold', 'part with', 'parted with'],
  ['clean', 'cleaned', 'wash', 'washed'],
  ['break', 'broke', 'smash', 'smashed'],
  ['wrap', 'wrapped', 'package', 'packaged'],
  ['photograph', 'photographed', 'take a picture of', 'took a picture of'],
  ['measure', 'measured', 'size up', 'sized up'],
  ['polish', 'polished', 'buff', 'buffed'],
  ['carry', 'carried', 'haul', 'hauled'],
  ['hide', 'hid', 'conceal', 'concealed'],
  ['return', 'returned', 'give back', 'gave back'],
  ['order', 'ordered', 'request', 'requested'],
  ['build', 'built', 'construct', 'constructed'],
  ['decorate', 'decorated', 'adorn', 'adorned'],
  ['examine', 'examined', 'inspect', 'inspected'],
  ['donate', 'donated', 'give away', 'gave away'],
  ['rent', 'rented', 'lease', 'leased'],
  ['steal', 'stole', 'pinch', 'pinched'],
  ['assemble', 'assembled', 'put together', 'put together'],
  ['unpack', 'unpacked', 'unbox', 'unboxed'],
  ['sketch', 'sketched', 'draw', 'drew'],
  ['choose', 'chose', 'pick', 'picked'],
  ['store', 'stored', 'keep', 'kept'],
].map(([base, past, otherBase, otherPast]) => ({
  base: base!,
  past: past!,
  otherBase: otherBase!,
  otherPast: otherPast!,
}));

/** Objects and another word for each (paraphrases share no word with the stored memory). */
const OBJECTS: Array<[string, string]> = [
  ['necklace', 'pendant'],
  ['bicycle', 'bike'],
  ['sofa', 'couch'],
  ['carpet', 'rug'],
  ['jacket', 'coat'],
  ['kettle', 'water boiler'],
  ['car', 'automobile'],
  ['mug', 'cup'],
  ['satchel', 'shoulder bag'],
  ['hat', 'cap'],
  ['dinghy', 'rowing boat'],
  ['painting', 'canvas'],
  ['camera', 'camcorder'],
  ['phone', 'mobile'],
  ['wristwatch', 'timepiece'],
  ['ring', 'band'],
  ['vase', 'urn'],
  ['clock', 'chronometer'],
  ['mirror', 'looking glass'],
  ['drill', 'power tool'],
  ['ladder', 'stepladder'],
  ['tent', 'shelter'],
  ['backpack', 'rucksack'],
  ['scarf', 'shawl'],
  ['blanket', 'quilt'],
  ['pillow', 'cushion'],
  ['armchair', 'recliner'],
  ['desk', 'writing table'],
  ['bookcase', 'shelving unit'],
  ['stove', 'oven'],
  ['fridge', 'refrigerator'],
  ['violin', 'fiddle'],
  ['piano', 'upright keyboard'],
  ['drum', 'snare'],
  ['kite', 'glider'],
  ['sled', 'toboggan'],
  ['lantern', 'torch'],
  ['helmet', 'headgear'],
  ['boots', 'wellingtons'],
  ['umbrella', 'parasol'],
  ['wallet', 'purse'],
  ['bracelet', 'bangle'],
  ['brooch', 'lapel pin'],
  ['skateboard', 'longboard'],
  ['canoe', 'kayak'],
  ['hammock', 'swing bed'],
  ['telescope', 'spyglass'],
  ['typewriter', 'writing machine'],
  ['bucket', 'pail'],
  ['shovel', 'spade'],
];
/**
 * The other words of the paraphrases for the words the memories hold ("try out" for "test", "pendant" for
 * "necklace"): what an embedding model that knows synonyms would see as the same.
 */
export const OTHER_WORDS: ReadonlyArray<readonly [other: string, stored: string]> = [
  ...ACTIONS.flatMap(({ base, past, otherBase, otherPast }) => [
    [otherBase, base] as const,
    [otherPast, past] as const,
  ]),
  ...OBJECTS.map(([stored, other]) => [other, stored] as const),
];

const ADJECTIVES =
  'tiny old shiny heavy red blue antique broken new wooden silver green fragile enormous vintage cheap expensive dusty striped yellow'.split(
    ' ',
  );
const WHERE = [
  'in the backyard',
  'at the office',
  'in the kitchen',
  'in the garage',
  'at the market',
  'in the attic',
  'at the beach',
  'in the basement',
  'at the park',
  'in the studio',
  'at the harbour',
  'in the garden',
  'at the station',
  'in the workshop',
  'at school',
  'in the hallway',
  'at the library',
  'in the cellar',
  'on the balcony',
  'at the gym',
];
const CITIES =
  'Montreal Almaty Bergen Cusco Dakar Edinburgh Fukuoka Gdansk Hobart Izmir Jaipur Kraków Lyon Medellín Nagoya Oaxaca Porto Quito Riga Salvador Tbilisi Utrecht Valparaíso Windhoek Xalapa Yerevan Zagreb Aarhus Bilbao Chiang Mai Daegu Essen Florence Ghent Halifax Innsbruck Jakarta Kyoto Lille Malmö Nantes Odessa Perth Québec Rosario Seville Tampere Uppsala Vilnius Wellington Adelaide Bologna Cork Dresden Eindhoven Faro Graz Hanoi Ibadan Jerusalem Kobe Leipzig Mendoza Nice Osaka Pune Reykjavik Sapporo Toulouse Ulm Verona Winnipeg Yokohama Zurich Antwerp Brno Calgary Durban Esbjerg Fez Geneva Helsinki Inverness Jena Kaunas Lausanne Manchester Nairobi Oslo Palermo Rotterdam Split Tallinn Turin Valencia Warsaw Cádiz Ljubljana Marseille Bratislava'.split(
    ' ',
  );
const JOBS =
  'an electrician|a nurse|a baker|a carpenter|a pilot|a librarian|a chemist|a plumber|a teacher|a journalist|an architect|a florist|a translator|a mechanic|a dentist|a gardener|an accountant|a photographer|a lawyer|a chef|a surveyor|a potter|a vet|a tailor|a geologist|a sailor|a pharmacist|a welder|a violinist|a park ranger'.split(
    '|',
  );
const HOBBIES =
  'birdwatching|rock climbing|knitting|chess|sourdough baking|salsa dancing|woodworking|astronomy|pottery|trail running|fly fishing|calligraphy|beekeeping|origami|karaoke|sailing|jigsaw puzzles|archery|gardening|stamp collecting'.split(
    '|',
  );
const MONTHS = 'January February March April May June July August September October November December'.split(' ');

/** The four kinds of question, as the issue names them. */
export const QUESTION_KINDS = ['all words', 'question', 'paraphrase', 'semantic'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

export interface ScaleQuestion {
  kind: QuestionKind;
  text: string;
  /** Index of the one right memory in the corpus. */
  answer: number;
}

export interface ScaleCorpusOptions {
  seed?: number;
  /** First and last names in use (at most 100 each): fewer make every name more common. */
  firstNames?: number;
  lastNames?: number;
  /** Objects (at most 50) and cities (at most 100) in use: fewer make every one more common. */
  objects?: number;
  cities?: number;
  /** Questions of each kind (their right memories are spread over the first min(size, 100,000) memories). */
  questionsPerKind?: number;
}

interface Event {
  name: string;
  action: Action;
  adjective: string;
  object: [string, string];
  where: string;
  city: string;
  date: { day: number; month: string; year: number };
}

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)]!;

/** The keys a question of each kind identifies its memory by: no other memory may share them. */
function keysOf(e: Event): string[] {
  return [
    `w|${e.name}|${e.object[0]}|${e.city}`,
    `q|${e.name}|${e.action.base}|${e.object[0]}`,
    `s|${e.action.base}|${e.adjective}|${e.object[0]}|${e.where}`,
  ];
}

const eventText = (e: Event): string =>
  `On ${e.date.day} ${e.date.month} ${e.date.year}, ${e.name} ${e.action.past} a ${e.adjective} ${e.object[0]} ${e.where} in ${e.city}.`;

/** The corpus: `memory(i)` for any i, and the questions. */
export class ScaleCorpus {
  readonly questions: ScaleQuestion[];
  private readonly seed: number;
  private readonly first: readonly string[];
  private readonly last: readonly string[];
  private readonly objects: ReadonlyArray<[string, string]>;
  private readonly cities: readonly string[];
  /** Right memories by index, and the keys no other memory may hold. */
  private readonly targets = new Map<number, Event>();
  private readonly reserved = new Set<string>();

  constructor(
    readonly size: number,
    options: ScaleCorpusOptions = {},
  ) {
    this.seed = options.seed ?? 24;
    this.first = FIRST.slice(0, options.firstNames ?? FIRST.length);
    this.last = LAST.slice(0, options.lastNames ?? LAST.length);
    this.objects = OBJECTS.slice(0, options.objects ?? OBJECTS.length);
    this.cities = CITIES.slice(0, options.cities ?? CITIES.length);
    const perKind = options.questionsPerKind ?? 250;
    const window = Math.min(size, 100_000);
    const stride = Math.max(1, Math.floor(window / perKind));
    for (let j = 0; j < perKind && j * stride < size; j++) {
      const index = j * stride + (j % Math.max(1, stride));
      for (let attempt = 0; ; attempt++) {
        const event = this.event(seededRandom(this.seed * 1_000_003 + index * 31 + attempt * 7_919 + 1));
        const keys = keysOf(event);
        if (keys.some((k) => this.reserved.has(k))) continue;
        keys.forEach((k) => {
          this.reserved.add(k);
        });
        this.targets.set(index, event);
        break;
      }
    }
    this.questions = QUESTION_KINDS.flatMap((kind) =>
      [...this.targets].map(([answer, e]) => ({ kind, answer, text: questionText(kind, e) })),
    );
  }

  /** The text of memory `i`: a dated event (60 %), what someone does for a living (25 %) or likes (15 %). */
  memory(i: number): string {
    const target = this.targets.get(i);
    if (target) return eventText(target);
    for (let attempt = 0; ; attempt++) {
      const next = seededRandom(this.seed * 1_000_003 + i * 31 + attempt * 7_919);
      const kind = next();
      if (kind < 0.25) return `${this.name(next)} works as ${pick(next, JOBS)} in ${pick(next, this.cities)}.`;
      if (kind < 0.4) return `${this.name(next)} likes ${pick(next, HOBBIES)} and ${pick(next, HOBBIES)}.`;
      const event = this.event(next);
      if (!keysOf(event).some((k) => this.reserved.has(k))) return eventText(event);
    }
  }

  /** Memories [from, to) in order. */
  slice(from: number, to: number): string[] {
    return Array.from({ length: Math.max(0, Math.min(to, this.size) - from) }, (_, n) => this.memory(from + n));
  }

  private name(next: () => number): string {
    return `${pick(next, this.first)} ${pick(next, this.last)}`;
  }

  private event(next: () => number): Event {
    return {
      name: this.name(next),
      action: pick(next, ACTIONS),
      adjective: pick(next, ADJECTIVES),
      object: pick(next, this.objects),
      where: pick(next, WHERE),
      city: pick(next, this.cities),
      date: { day: 1 + Math.floor(next() * 28), month: pick(next, MONTHS), year: 2015 + Math.floor(next() * 10) },
    };
  }
}

function questionText(kind: QuestionKind, e: Event): string {
  switch (kind) {
    // Every word is in the memory: "Anouk Holm necklace Montreal".
    case 'all words':
      return `${e.name} ${e.object[0]} ${e.city}`;
    // A question in the memory's words: "When did Anouk Holm test the necklace?"
    case 'question':
      return `When did ${e.name} ${e.action.base} the ${e.object[0]}?`;
    // The same person, other words for the rest: "When did Anouk Holm try out a pendant?"
    case 'paraphrase':
      return `When did ${e.name} ${e.action.otherBase} a ${e.object[1]}?`;
    // No name, other words: "Who tried out a tiny pendant in the backyard?"
    case 'semantic':
      return `Who ${e.action.otherPast} a ${e.adjective} ${e.object[1]} ${e.where}?`;
  }
}
