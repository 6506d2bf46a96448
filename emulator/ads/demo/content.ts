// Vocabulary for the demo accounts: product lines, ad-group themes, copy
// templates. Plain data; generate.ts turns it into entities and traffic.

export interface AdGroupTheme {
  name: string;
  /** URL slug, also path2 (≤ 15 chars). */
  slug: string;
  /** Core noun phrases keywords are built from. */
  nouns: string[];
}

export interface ProductLine {
  key: string;
  /** Display name used in campaign names and headlines ("Tents"). */
  name: string;
  /** path1 (≤ 15 chars). */
  path: string;
  /** Average order value and typical non-brand CPC, in account currency units. */
  aov: number;
  cpc: number;
  /** Relative conversion-rate multiplier for the line. */
  cvr: number;
  themes: AdGroupTheme[];
}

export const PREFIX_MODIFIERS = ["best", "buy", "cheap", "top rated", "lightweight", "affordable", "discount", "waterproof"];
export const SUFFIX_MODIFIERS = ["sale", "for sale", "online", "deals", "store", "reviews", "clearance", "shop"];

/** Query words that signal research or non-purchase intent; such terms rarely convert. */
export const LOW_INTENT_PREFIXES = ["how to choose", "what is the best", "diy", "how to clean"];
export const BROAD_TERM_PATTERNS = [
  "{x} near me",
  "{x} brands",
  "womens {x}",
  "mens {x}",
  "{x} vs",
  "{x} size guide",
  "used {x}",
  "{x} for beginners",
  "best {x} 2026",
  "{x} outlet",
];
/** Queries around a brand name: navigational, support and deal-seeking. */
export const BRAND_TERM_PATTERNS = ["{x} reviews", "{x} near me", "{x} return policy", "{x} customer service", "{x} free shipping", "{x} sale", "is {x} good"];
export const PHRASE_TERM_PATTERNS = ["best {x}", "{x} for sale", "{x} reviews", "cheap {x}", "{x} on sale", "buy {x} online", "{x} black friday"];

export const OUTDOOR_LINES: ProductLine[] = [
  {
    key: "tents",
    name: "Tents",
    path: "tents",
    aov: 280,
    cpc: 1.55,
    cvr: 1.0,
    themes: [
      {
        name: "Backpacking Tents",
        slug: "backpacking",
        nouns: ["backpacking tent", "2 person backpacking tent", "lightweight backpacking tent", "backpacking tents", "1 person tent", "hiking tent"],
      },
      {
        name: "Family Tents",
        slug: "family",
        nouns: ["family tent", "6 person tent", "8 person tent", "large camping tent", "family camping tent", "cabin tent"],
      },
      {
        name: "Ultralight Tents",
        slug: "ultralight",
        nouns: ["ultralight tent", "ultralight backpacking tent", "trekking pole tent", "1 person ultralight tent", "dyneema tent", "ultralight shelter"],
      },
      {
        name: "4-Season Tents",
        slug: "4-season",
        nouns: ["4 season tent", "winter tent", "mountaineering tent", "expedition tent", "snow camping tent", "four season tent"],
      },
      {
        name: "Instant Tents",
        slug: "instant",
        nouns: ["instant tent", "pop up tent", "4 person instant tent", "instant cabin tent", "quick setup tent", "easy setup tent"],
      },
      {
        name: "Tent Accessories",
        slug: "accessories",
        nouns: ["tent footprint", "tent stakes", "tent repair kit", "tent poles", "ground tarp", "tent lights"],
      },
    ],
  },
  {
    key: "sleeping",
    name: "Sleeping Bags",
    path: "sleeping-bags",
    aov: 165,
    cpc: 1.2,
    cvr: 1.05,
    themes: [
      {
        name: "Down Sleeping Bags",
        slug: "down",
        nouns: ["down sleeping bag", "800 fill down sleeping bag", "down mummy bag", "lightweight down sleeping bag", "goose down sleeping bag"],
      },
      {
        name: "Synthetic Bags",
        slug: "synthetic",
        nouns: ["synthetic sleeping bag", "budget sleeping bag", "camping sleeping bag", "warm sleeping bag", "sleeping bag"],
      },
      {
        name: "Kids Sleeping Bags",
        slug: "kids",
        nouns: ["kids sleeping bag", "youth sleeping bag", "toddler sleeping bag", "childrens sleeping bag", "kids camping sleeping bag"],
      },
      {
        name: "Sleeping Pads",
        slug: "pads",
        nouns: ["sleeping pad", "inflatable sleeping pad", "foam sleeping pad", "insulated sleeping pad", "camping mattress", "backpacking sleeping pad"],
      },
      { name: "Quilts & Liners", slug: "quilts", nouns: ["backpacking quilt", "sleeping bag liner", "camping quilt", "down quilt", "silk sleeping bag liner"] },
      {
        name: "Winter Sleeping Bags",
        slug: "winter",
        nouns: ["0 degree sleeping bag", "winter sleeping bag", "cold weather sleeping bag", "20 degree sleeping bag", "minus 20 sleeping bag"],
      },
    ],
  },
  {
    key: "boots",
    name: "Hiking Boots",
    path: "boots",
    aov: 150,
    cpc: 1.35,
    cvr: 0.95,
    themes: [
      {
        name: "Men's Hiking Boots",
        slug: "mens",
        nouns: ["mens hiking boots", "men's hiking boots", "hiking boots for men", "mens trekking boots", "mens hiking boot"],
      },
      {
        name: "Women's Hiking Boots",
        slug: "womens",
        nouns: ["womens hiking boots", "women's hiking boots", "hiking boots for women", "womens waterproof hiking boots", "womens trekking boots"],
      },
      {
        name: "Waterproof Boots",
        slug: "waterproof",
        nouns: ["waterproof hiking boots", "gore tex hiking boots", "waterproof boots", "leather hiking boots", "waterproof trekking boots"],
      },
      { name: "Trail Shoes", slug: "trail-shoes", nouns: ["trail shoes", "hiking shoes", "approach shoes", "trail hiking shoes", "lightweight hiking shoes"] },
      {
        name: "Backpacking Boots",
        slug: "backpacking",
        nouns: ["backpacking boots", "heavy duty hiking boots", "mountaineering boots", "ankle support hiking boots", "boots"],
      },
      { name: "Boot Care & Socks", slug: "care", nouns: ["boot waterproofing", "hiking socks", "boot insoles", "boot laces", "merino hiking socks"] },
    ],
  },
  {
    key: "packs",
    name: "Backpacks",
    path: "backpacks",
    aov: 130,
    cpc: 1.3,
    cvr: 1.0,
    themes: [
      { name: "Hiking Daypacks", slug: "daypacks", nouns: ["hiking daypack", "daypack", "20l backpack", "hiking backpack", "small hiking backpack"] },
      {
        name: "Backpacking Packs",
        slug: "backpacking",
        nouns: ["backpacking pack", "65l backpack", "50l backpack", "internal frame backpack", "backpacking backpack"],
      },
      { name: "Travel Packs", slug: "travel", nouns: ["travel backpack", "carry on backpack", "40l travel backpack", "travel pack", "laptop backpack"] },
      {
        name: "Hydration Packs",
        slug: "hydration",
        nouns: ["hydration pack", "hydration backpack", "running hydration vest", "water backpack", "hydration bladder"],
      },
      {
        name: "Kids Carriers",
        slug: "carriers",
        nouns: ["kids hiking backpack", "child carrier backpack", "baby hiking carrier", "toddler carrier backpack", "youth backpacking pack"],
      },
      {
        name: "Ultralight Packs",
        slug: "ultralight",
        nouns: ["ultralight backpack", "frameless backpack", "ultralight pack", "thru hiking backpack", "lightweight backpacking pack"],
      },
    ],
  },
  {
    key: "climbing",
    name: "Climbing Gear",
    path: "climbing",
    aov: 95,
    cpc: 1.05,
    cvr: 1.45,
    themes: [
      {
        name: "Climbing Harnesses",
        slug: "harnesses",
        nouns: ["climbing harness", "rock climbing harness", "womens climbing harness", "gym climbing harness", "alpine harness"],
      },
      {
        name: "Climbing Shoes",
        slug: "shoes",
        nouns: ["climbing shoes", "bouldering shoes", "rock climbing shoes", "beginner climbing shoes", "aggressive climbing shoes"],
      },
      { name: "Climbing Ropes", slug: "ropes", nouns: ["climbing rope", "dynamic rope", "9.5mm climbing rope", "70m climbing rope", "dry treated rope"] },
      { name: "Carabiners & Belay", slug: "hardware", nouns: ["carabiners", "locking carabiner", "belay device", "quickdraws", "auto locking carabiner"] },
      { name: "Chalk & Bouldering", slug: "bouldering", nouns: ["climbing chalk", "chalk bag", "crash pad", "bouldering pad", "liquid chalk"] },
      { name: "Climbing Helmets", slug: "helmets", nouns: ["climbing helmet", "rock climbing helmet", "mountaineering helmet", "lightweight climbing helmet"] },
    ],
  },
  {
    key: "jackets",
    name: "Rain Jackets",
    path: "jackets",
    aov: 175,
    cpc: 1.5,
    cvr: 0.9,
    themes: [
      {
        name: "Men's Rain Jackets",
        slug: "mens",
        nouns: ["mens rain jacket", "men's waterproof jacket", "rain jacket men", "mens rain shell", "mens waterproof coat"],
      },
      {
        name: "Women's Rain Jackets",
        slug: "womens",
        nouns: ["womens rain jacket", "women's waterproof jacket", "rain jacket women", "womens rain shell", "womens raincoat"],
      },
      {
        name: "Hardshells",
        slug: "hardshells",
        nouns: ["hardshell jacket", "gore tex jacket", "waterproof shell jacket", "3 layer jacket", "mountain jacket"],
      },
      {
        name: "Packable Rain Gear",
        slug: "packable",
        nouns: ["packable rain jacket", "lightweight rain jacket", "rain poncho", "rain pants", "emergency poncho"],
      },
      {
        name: "Insulated Jackets",
        slug: "insulated",
        nouns: ["down jacket", "puffer jacket", "insulated jacket", "synthetic insulated jacket", "winter coat"],
      },
      { name: "Softshells", slug: "softshells", nouns: ["softshell jacket", "windbreaker", "wind jacket", "fleece jacket", "softshell pants"] },
    ],
  },
  {
    key: "kitchen",
    name: "Camp Kitchen",
    path: "camp-kitchen",
    aov: 68,
    cpc: 0.9,
    cvr: 1.2,
    themes: [
      { name: "Camp Stoves", slug: "stoves", nouns: ["camping stove", "backpacking stove", "propane camp stove", "2 burner camp stove", "camp stove"] },
      { name: "Camp Cookware", slug: "cookware", nouns: ["camping cookware", "camp cook set", "backpacking pot", "titanium pot", "camping pots and pans"] },
      { name: "Coolers", slug: "coolers", nouns: ["cooler", "rotomolded cooler", "45 qt cooler", "soft cooler", "camping cooler"] },
      {
        name: "Water Filters",
        slug: "water",
        nouns: ["water filter", "backpacking water filter", "water purifier", "gravity water filter", "squeeze water filter"],
      },
      { name: "Camp Furniture", slug: "furniture", nouns: ["camping chair", "camp table", "folding camping chair", "backpacking chair", "camping hammock"] },
      { name: "Headlamps & Lanterns", slug: "lighting", nouns: ["headlamp", "rechargeable headlamp", "camping lantern", "led lantern", "running headlamp"] },
    ],
  },
  {
    key: "running",
    name: "Trail Running",
    path: "trail-running",
    aov: 125,
    cpc: 1.25,
    cvr: 0.9,
    themes: [
      {
        name: "Trail Running Shoes",
        slug: "shoes",
        nouns: ["trail running shoes", "mens trail running shoes", "womens trail running shoes", "waterproof trail running shoes"],
      },
      { name: "Running Vests", slug: "vests", nouns: ["running vest", "trail running vest", "running hydration vest", "ultra running vest"] },
      { name: "Running Apparel", slug: "apparel", nouns: ["trail running shorts", "running jacket", "running tights", "merino running shirt"] },
      { name: "Running Poles", slug: "poles", nouns: ["trail running poles", "folding trekking poles", "carbon running poles", "ultra running poles"] },
    ],
  },
  {
    key: "snow",
    name: "Ski & Snow",
    path: "snow",
    aov: 310,
    cpc: 1.7,
    cvr: 0.8,
    themes: [
      { name: "Snowshoes", slug: "snowshoes", nouns: ["snowshoes", "mens snowshoes", "womens snowshoes", "snowshoe kit"] },
      { name: "Ski Jackets", slug: "ski-jackets", nouns: ["ski jacket", "mens ski jacket", "womens ski jacket", "insulated ski jacket"] },
      { name: "Avalanche Safety", slug: "avalanche", nouns: ["avalanche beacon", "avalanche probe", "avalanche shovel", "avalanche safety kit"] },
      { name: "Ski Backpacks", slug: "ski-packs", nouns: ["ski backpack", "backcountry ski pack", "avalanche airbag pack", "ski touring backpack"] },
    ],
  },
];

export const BRAND_THEMES: AdGroupTheme[] = [
  {
    name: "Brand - Core",
    slug: "brand",
    nouns: ["northwind", "northwind outdoor", "northwind outdoor gear", "northwind gear", "northwind outdoors", "www northwind outdoor com"],
  },
  {
    name: "Brand - Products",
    slug: "products",
    nouns: ["northwind tent", "northwind sleeping bag", "northwind backpack", "northwind hiking boots", "northwind rain jacket", "northwind climbing harness"],
  },
  {
    name: "Brand - Store & Promo",
    slug: "store",
    nouns: ["northwind store", "northwind coupon", "northwind discount code", "northwind outlet", "northwind returns", "northwind promo code"],
  },
];

export const COMPETITOR_THEMES: AdGroupTheme[] = [
  { name: "Competitor - Big Box", slug: "compare", nouns: ["rei tents", "rei backpacks", "rei sleeping bags", "rei hiking boots", "rei outlet"] },
  { name: "Competitor - Brands", slug: "brands", nouns: ["patagonia rain jacket", "north face tent", "osprey backpack", "black diamond harness", "msr stove"] },
  {
    name: "Competitor - Marketplaces",
    slug: "marketplace",
    nouns: ["outdoor gear amazon", "camping gear walmart", "backcountry com", "moosejaw outlet", "campmor"],
  },
];

export const HEADLINE_TEMPLATES = [
  "{label}",
  "Shop {label}",
  "{label} Sale",
  "Top-Rated {label}",
  "Northwind Outdoor Gear",
  "Free Shipping Over $50",
  "30-Day Easy Returns",
  "New Season {label}",
  "Up to 30% Off {line}",
  "Built for the Backcountry",
  "Lifetime Repair Program",
  "Expert Advice, Real Reviews",
  "Order Today, Ships in 24h",
  "{label} From ${price}",
  "Lightweight & Durable Gear",
  "Members Save 10% Today",
  "Official Northwind Store",
  "Field-Tested {line}",
];

export const DESCRIPTION_TEMPLATES = [
  "Shop {labelLower} built for real trails. Free shipping over $50 and easy 30-day returns.",
  "Field-tested {labelLower} from Northwind. Compare weights, specs and reviews, then gear up.",
  "Every Northwind product is backed by our lifetime repair program. Shop online today.",
  "Members save 10% on their first order. Expert advice from real hikers and climbers.",
  "New season {labelLower} in stock now. Order by 2pm for same-day dispatch on most items.",
  "Rated 4.8/5 by 12,000+ customers. Find the right {labelLower} for your next trip.",
];

export const DISPLAY_AD_GROUPS = [
  { name: "Remarketing - Cart Abandoners", slug: "cart" },
  { name: "Remarketing - Past Purchasers", slug: "customers" },
  { name: "Remarketing - All Visitors 30d", slug: "visitors" },
];

export const CAMPAIGN_NEGATIVES: Array<[string, "BROAD" | "PHRASE" | "EXACT"]> = [
  ["jobs", "BROAD"],
  ["careers", "BROAD"],
  ["craigslist", "BROAD"],
  ["rental", "PHRASE"],
  ["coloring page", "PHRASE"],
  ["drawing", "BROAD"],
];

// ---- Bakery (small EUR account, German copy) ----

export const BAKERY_LINES: ProductLine[] = [
  {
    key: "torten",
    name: "Torten & Kuchen",
    path: "torten",
    aov: 58,
    cpc: 0.85,
    cvr: 1.6,
    themes: [
      {
        name: "Geburtstagstorten",
        slug: "geburtstag",
        nouns: ["geburtstagstorte berlin", "torte bestellen berlin", "kindertorte berlin", "motivtorte berlin", "geburtstagstorte bestellen"],
      },
      { name: "Hochzeitstorten", slug: "hochzeit", nouns: ["hochzeitstorte berlin", "hochzeitstorte bestellen", "naked cake berlin", "hochzeitstorte preise"] },
    ],
  },
  {
    key: "brot",
    name: "Brot & Brötchen",
    path: "brot",
    aov: 24,
    cpc: 0.55,
    cvr: 1.4,
    themes: [
      { name: "Sauerteigbrot", slug: "sauerteig", nouns: ["sauerteigbrot berlin", "bäckerei sauerteig", "roggenbrot kaufen", "dinkelbrot berlin"] },
      {
        name: "Frühstückslieferung",
        slug: "fruehstueck",
        nouns: ["brötchen lieferservice berlin", "frühstück lieferung berlin", "brötchenservice", "frühstückskorb berlin"],
      },
    ],
  },
];

export const BAKERY_BRAND_THEMES: AdGroupTheme[] = [
  { name: "Marke", slug: "marke", nouns: ["northwind bäckerei", "bäckerei northwind berlin", "northwind bakery berlin", "northwind backstube"] },
];

export const BAKERY_HEADLINES = [
  "{label} aus Berlin",
  "{label} online bestellen",
  "Bäckerei Northwind",
  "Handwerk seit 1987",
  "Frisch gebacken, jeden Tag",
  "Lieferung in ganz Berlin",
  "Bio-Zutaten aus der Region",
  "Jetzt vorbestellen",
  "Abholung ab 6 Uhr",
];

export const BAKERY_DESCRIPTIONS = [
  "{label} vom Meisterbäcker. Online bestellen und bequem in Kreuzberg abholen.",
  "Täglich frisch aus unserer Backstube. Lieferung in ganz Berlin ab 25 € Bestellwert.",
  "Traditionelles Handwerk, regionale Bio-Zutaten und ehrliche Preise. Jetzt entdecken.",
];
