/**
 * Common English irregular verbs (base, past, past participle). Stemmers leave "drew" and "drawing" apart; a
 * keyword query for one form also asks for the others. Verbs whose forms are common words of another meaning
 * ("rose", "spring", "lead", "light") are left out, and so are those whose forms are all alike ("put", "cut").
 */
const VERBS = `arise arose arisen|awake awoke awoken|be was were been|beat beat beaten|become became become|begin began begun|bend bent bent|bite bit bitten|bleed bled bled|blow blew blown|break broke broken|breed bred bred|bring brought brought|build built built|burn burnt burnt|buy bought bought|catch caught caught|choose chose chosen|cling clung clung|come came come|creep crept crept|deal dealt dealt|dig dug dug|do did done|draw drew drawn|dream dreamt dreamt|drink drank drunk|drive drove driven|eat ate eaten|fall fell fallen|feed fed fed|feel felt felt|fight fought fought|find found found|flee fled fled|forbid forbade forbidden|forget forgot forgotten|forgive forgave forgiven|freeze froze frozen|get got gotten|give gave given|go went gone|grow grew grown|hang hung hung|have had had|hear heard heard|hide hid hidden|hold held held|keep kept kept|kneel knelt knelt|know knew known|leap leapt leapt|learn learnt learnt|leave left left|lend lent lent|lose lost lost|make made made|mean meant meant|meet met met|pay paid paid|read read read|ride rode ridden|run ran run|say said said|see saw seen|seek sought sought|sell sold sold|send sent sent|shake shook shaken|shine shone shone|shoot shot shot|show showed shown|shrink shrank shrunk|sing sang sung|sink sank sunk|sit sat sat|sleep slept slept|slide slid slid|speak spoke spoken|speed sped sped|spend spent spent|spin spun spun|stand stood stood|steal stole stolen|stick stuck stuck|sting stung stung|strike struck struck|swear swore sworn|sweep swept swept|swim swam swum|swing swung swung|take took taken|teach taught taught|tell told told|think thought thought|throw threw thrown|understand understood understood|wake woke woken|wear wore worn|weep wept wept|win won won|write wrote written`;

const FORMS = new Map<string, string[]>();
for (const entry of VERBS.split('|')) {
  const forms = [...new Set(entry.split(' '))];
  for (const form of forms) FORMS.set(form, [...new Set([...(FORMS.get(form) ?? []), ...forms])]);
}

/** The other forms of an irregular verb ("drew" -> ["draw", "drawn"]), or none. */
export function otherVerbForms(word: string): string[] {
  return (FORMS.get(word) ?? []).filter((form) => form !== word);
}
