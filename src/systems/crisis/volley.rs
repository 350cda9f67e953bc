//! The `volley` and `turns_to_kill` scenarios: several attackers on one
//! target whose Health, non-lethal wounds and armour Durability carry from
//! attack to attack (an ambush), then round after round, each attacker's AP
//! recovered between rounds, until the target is down.
//!
//! Turns: "Each character and creature in a crisis have one turn per round
//! ... Once every character has acted, a new round begins": a volley is one
//! round, each attacker's turn in the order listed (the `count` of a kind
//! are as many characters, one turn each). Each attacker is the `attack`
//! scenario's attacker, read by the same code ([`turn_of`]) from the
//! target's parameters with its own over them, and its attacks are the
//! same [`Attack::resolve_dodging`] on the one [`Target`], so a volley of
//! one attacker is that scenario's turn, step for step.
//!
//! Cover is each attacker's: "Cover is always relative to other targets. A
//! character can be in total cover for an enemy, but in plain sight for
//! another." The target's dodge is its own: "Once per round you can try to
//! dodge an incoming Area of Effect Attack", read as the round's first area
//! attack, whoever makes it (the one-attacker turn tries it on its first).
//! An attacker whose turn begins with the target already down (incapacitated,
//! or the `until` of turns to kill) holds its attacks; one whose attacks
//! drop the target rolls them all ("You have to assign all Attacks to your
//! targets first before you roll for them").

use super::attack::{Attack, FIGHT_METRICS, FightParams, Shot, TURN_METRICS, TurnParams, turn_of};
use super::rules::{Intent, Target, affordable_attacks, ap_at_turn_start, attacks_cost};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::{
    ForwardTurns, Mechanic, MetricDecl, MetricList, Model, RepeatModel, Repeated, StepModel,
    TurnCounted,
};
use crate::systems::attackers::{self, Attacker};
use crate::systems::{ParamDecl, ParamError, ParamGroup, Params, Refusal, Scenario};

/// The seed sections a volley follows.
const SEED: &str = "Turns; Action Points; Attacks; RoF; Ranged Attacks; Melee Attacks; Area of Effect; Dodging; Cover; Damage; Damage Reduction; Non-lethal damage; Wounds; Lethal";

/// What each attacker sets: its skill, weapon and intent, and the cover
/// the target has against it. The target keeps its Health, armour, Parry,
/// Athletics and the game's dice.
const EACH: &[&str] = &[
    "skill",
    "hit",
    "circumstance",
    "kind",
    "range_penalty",
    "cover",
    "penetrable",
    "rof",
    "attack_ap",
    "damage",
    "damage_circumstance",
    "armour_piercing",
    "intent",
];

/// Most attacks one volley may make (its hits are counted in a byte).
const MAX_ATTACKS: u32 = 250;

/// `all` split between each attacker (`EACH` and `own`) and the target.
/// The target's Parry and Athletics are used with an attacker's kind
/// (melee, area), so they say so in words rather than as a `needs`.
fn split(all: Vec<ParamDecl>, own: &[&str]) -> (Vec<ParamDecl>, Vec<ParamDecl>) {
    let mut each: Vec<&str> = EACH.to_vec();
    each.extend(own);
    let (each, mut target) = attackers::split(all, &each);
    for d in &mut target {
        if !d.needs.is_empty() {
            d.needs.clear();
            match d.name.as_str() {
                "target_parry" => {
                    d.about = "the target's Parry: the DL of the melee attackers' attacks".into();
                }
                "target_athletics" => {
                    d.about = "the target dodges the round's first area attack with Athletics (a contest)".into();
                }
                _ => {}
            }
        }
    }
    (each, target)
}

/// The `volley` scenario's parameters.
fn volley_params() -> Vec<ParamDecl> {
    let (each, target) = split(TurnParams::decls(), &["attacks", "ap"]);
    attackers::volley_decls(each, target)
}

/// The `turns_to_kill` scenario's parameters: each attacker's `policy`
/// (the fight's), the target's, when to stop and how many rounds at most.
fn turns_params() -> Vec<ParamDecl> {
    let (each, target) = split(FightParams::decls(), &["policy"]);
    let mut decls = attackers::volley_decls(each, target);
    decls.push(
        ParamDecl::choice("until", &["incapacitated", "dead"])
            .default("incapacitated")
            .about("what takes the target down: incapacitated (dying, dead, knocked out, or more than 12 wounds in one hit), or dead (Health -10: the attackers go on attacking a dying target)")
            .seed("Non-lethal damage; Lethal"),
    );
    decls.push(
        ParamDecl::int("turns", 1, 30)
            .default("8")
            .about("rounds played at most: the curve's length")
            .seed("Turns"),
    );
    decls
}

/// The ambush both scenarios test first: two gunmen (skill 1, RoF 2,
/// damage 3), a grenadier (area, skill 2, RNG -1, damage 4) and a knifeman
/// (melee, skill 2, damage 3) at a target with Health 14, Parry 7 and
/// armour DR 1, Durability 4.
const AMBUSH: &[(&str, &str)] = &[
    ("attackers", "gunmen,grenadier,knife"),
    ("gunmen.count", "2"),
    ("gunmen.skill", "1"),
    ("gunmen.damage", "3"),
    ("gunmen.rof", "2"),
    ("gunmen.attacks", "2"),
    ("grenadier.kind", "area"),
    ("grenadier.skill", "2"),
    ("grenadier.range_penalty", "1"),
    ("grenadier.damage", "4"),
    ("knife.kind", "melee"),
    ("knife.skill", "2"),
    ("knife.damage", "3"),
    ("target_parry", "7"),
    ("target_health", "14"),
    ("armour_dr", "1"),
    ("armour_durability", "4"),
];

/// The same ambush round after round (the gunmen fire all the RoF their AP
/// allow).
const AMBUSH_TURNS: &[(&str, &str)] = &[
    ("attackers", "gunmen,grenadier,knife"),
    ("gunmen.count", "2"),
    ("gunmen.skill", "1"),
    ("gunmen.damage", "3"),
    ("gunmen.rof", "2"),
    ("gunmen.policy", "all"),
    ("grenadier.kind", "area"),
    ("grenadier.skill", "2"),
    ("grenadier.range_penalty", "1"),
    ("grenadier.damage", "4"),
    ("knife.kind", "melee"),
    ("knife.skill", "2"),
    ("knife.damage", "3"),
    ("target_parry", "7"),
    ("target_health", "14"),
    ("armour_dr", "1"),
    ("armour_durability", "4"),
];

/// The `volley` scenario.
pub const VOLLEY_SCENARIO: Scenario = Scenario {
    name: "volley",
    about: "several attackers, one target, one round: Health, non-lethal wounds and the armour's Durability carry from attack to attack",
    seed_section: SEED,
    params: volley_params,
    metrics: || TURN_METRICS.to_vec(),
    build: |p, v| Ok(Box::new(StepModel::new(VolleyRule::new(volley(p, v)?)))),
    variants: &["dodge_damage"],
    test_points: &[
        AMBUSH,
        // grenadiers and a rifle: area attacks, one dodge a round, cover
        // relative to each attacker
        &[
            ("attackers", "grenadiers,rifle"),
            ("grenadiers.count", "2"),
            ("grenadiers.kind", "area"),
            ("grenadiers.skill", "2"),
            ("grenadiers.damage", "5"),
            ("grenadiers.range_penalty", "1"),
            ("rifle.skill", "4"),
            ("rifle.damage", "6"),
            ("rifle.cover", "heavy"),
            ("rifle.penetrable", "true"),
            ("rifle.intent", "knock_out"),
            ("target_health", "6"),
            ("target_athletics", "2"),
            ("armour_dr", "2"),
            ("armour_durability", "3"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "an attacker's count of 0",
            point: 0,
            set: &[("gunmen.count", "0")],
            unset: &[],
            field: "gunmen.count",
            words: &["must be from 1 to 20"],
        },
        Refusal {
            what: "the target's Health on an attacker",
            point: 0,
            set: &[("knife.target_health", "4")],
            unset: &[],
            field: "knife.target_health",
            words: &["the target's"],
        },
        Refusal {
            what: "an attacker without a weapon",
            point: 0,
            set: &[],
            unset: &["knife.damage"],
            field: "knife.damage",
            words: &["missing"],
        },
        Refusal {
            what: "more attacks than an attacker's RoF",
            point: 0,
            set: &[("gunmen.attacks", "3")],
            unset: &[],
            field: "gunmen.attacks",
            words: &["RoF"],
        },
        Refusal {
            what: "a Parry with no melee attacker",
            point: 0,
            set: &[("knife.kind", "ranged")],
            unset: &[],
            field: "target_parry",
            words: &["no attacker", "melee"],
        },
        Refusal {
            what: "a dodge with no area attacker",
            point: 0,
            set: &[("target_athletics", "3"), ("grenadier.kind", "ranged")],
            unset: &[],
            field: "target_athletics",
            words: &["Only Area of Effect Attacks can be dodged"],
        },
    ],
    naive: crate::systems::crisis::naive::VOLLEY,
};

/// The `turns_to_kill` scenario.
pub const TURNS_TO_KILL_SCENARIO: Scenario = Scenario {
    name: "turns_to_kill",
    about: "a volley every round, each attacker's AP recovered between rounds, until the target is down",
    seed_section: SEED,
    params: turns_params,
    metrics: turns_metrics,
    build: build_turns,
    variants: &["dodge_damage"],
    test_points: &[
        AMBUSH_TURNS,
        // a 2-AP first attack: 4 AP pay for three (2 + 1 + 1), until dead
        &[
            ("attackers", "sniper,brawler"),
            ("sniper.skill", "0"),
            ("sniper.damage", "3"),
            ("sniper.rof", "3"),
            ("sniper.attack_ap", "2"),
            ("sniper.policy", "all"),
            ("brawler.kind", "melee"),
            ("brawler.skill", "1"),
            ("brawler.damage", "2"),
            ("brawler.intent", "knock_out"),
            ("target_parry", "8"),
            ("target_health", "4"),
            ("armour_dr", "1"),
            ("armour_durability", "8"),
            ("until", "dead"),
            ("turns", "3"),
        ],
        &[
            ("attackers", "grenadier"),
            ("grenadier.kind", "area"),
            ("grenadier.skill", "2"),
            ("grenadier.damage", "3"),
            ("target_health", "4"),
            ("target_athletics", "3"),
            ("turns", "5"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "a misspelt attacker",
            point: 0,
            set: &[("gunman.skill", "3")],
            unset: &[],
            field: "gunman.skill",
            words: &["did you mean 'gunmen'"],
        },
        Refusal {
            what: "the best policy (a one-attacker fight's)",
            point: 0,
            set: &[("gunmen.policy", "best")],
            unset: &[],
            field: "gunmen.policy",
            words: &["\"best\""],
        },
        Refusal {
            what: "until dead when every attacker knocks out",
            point: 0,
            set: &[
                ("until", "dead"),
                ("gunmen.intent", "knock_out"),
                ("grenadier.intent", "knock_out"),
                ("knife.intent", "knock_out"),
            ],
            unset: &[],
            field: "until",
            words: &["never dies"],
        },
    ],
    naive: crate::systems::crisis::naive::TURNS_TO_KILL,
};

/// An attacker's view with the target's Parry kept only for a melee
/// attacker and its Athletics only for an area one ("Only Area of Effect
/// Attacks can be dodged"), so each reads what its own kind of attack is
/// against.
fn view(a: &Attacker) -> Result<Params, ParamError> {
    let mut v = a.params.clone();
    let kind = v.need_word("kind")?;
    if kind != "melee" {
        v.remove("target_parry");
    }
    if kind != "area" {
        v.remove("target_athletics");
    }
    Ok(v)
}

/// One attacker of a volley: its attack, and
/// the attacks it makes (a volley's `attacks`; turns to kill: the most any
/// round, its policy's `wanted`).
#[derive(Clone, Debug)]
struct Shooter {
    attack: Attack,
    attacks: u8,
}

/// A volley: each attacker's turn, as many times as its count, in the
/// order listed.
pub struct Volley {
    shooters: Vec<Shooter>,
}

/// The attackers `p` lists, each read by `read` from its view (errors
/// named as the spec names them), checked together: the target's Parry
/// and Athletics used by some attacker, at most [`MAX_ATTACKS`] attacks.
fn read_volley(
    p: &Params,
    reads: Vec<ParamDecl>,
    read: impl Fn(&Params) -> Result<(Attack, u8), ParamError>,
) -> Result<Volley, ParamError> {
    let list = attackers::attackers(p, &reads)?;
    let mut shooters = Vec::new();
    let mut total = 0u32;
    for a in &list {
        let (attack, attacks) = view(a)
            .and_then(|v| read(&v))
            .map_err(|e| a.owns(e, p.decls()))?;
        total += a.count * u32::from(attacks);
        if total > MAX_ATTACKS {
            return Err(ParamError::new(
                format!("{}.count", a.name),
                format!(
                    "the volley could make {total} attacks, more than the {MAX_ATTACKS} one volley may: fewer attackers or attacks"
                ),
            ));
        }
        for _ in 0..a.count {
            shooters.push(Shooter {
                attack: attack.clone(),
                attacks,
            });
        }
    }
    let any = |k: super::attack::Kind| shooters.iter().any(|s| s.attack.kind == k);
    if p.given("target_parry").is_some() && !any(super::attack::Kind::Melee) {
        return Err(ParamError::new(
            "target_parry",
            "no attacker makes a melee attack (kind = \"melee\"), the only attack against Parry; a ranged or area attack is against DL 4",
        ));
    }
    if p.given("target_athletics").is_some() && !any(super::attack::Kind::Area) {
        return Err(ParamError::new(
            "target_athletics",
            "'Only Area of Effect Attacks can be dodged': no attacker has kind = \"area\"",
        ));
    }
    Ok(Volley { shooters })
}

/// The volley `p` describes: each attacker as the `attack` scenario reads
/// it (its RoF and AP checked there).
fn volley(p: &Params, variants: &Params) -> Result<Volley, ParamError> {
    read_volley(p, TurnParams::decls(), |v| {
        turn_of(&TurnParams::read(v)?, variants)
    })
}

impl Volley {
    /// The target before the first attack (every attacker reads the same).
    fn fresh_target(&self) -> Target {
        self.shooters[0].attack.fresh_target()
    }

    /// The target's full Health.
    fn health(&self) -> i32 {
        self.shooters[0].attack.defence.health
    }

    /// `(attacker, its own attack)` of each step, attacker by attacker,
    /// up to each one's `attacks`.
    fn layout(&self) -> Vec<(usize, u8)> {
        self.shooters
            .iter()
            .enumerate()
            .flat_map(|(j, s)| (0..s.attacks).map(move |n| (j, n)))
            .collect()
    }

    /// Attacker `j`'s attack `n` of its turn on `target`: the target tries
    /// its one dodge of the round on the first area attack that comes
    /// (`dodge_tried` says it has); returns how it went.
    fn attack<R: Roller>(
        &self,
        (j, n): (usize, u8),
        dice: &mut R,
        target: &mut Target,
        dodge_tried: &mut bool,
    ) -> Shot {
        let attack = &self.shooters[j].attack;
        let dodges = attack.dodge.is_some() && !*dodge_tried;
        if dodges {
            *dodge_tried = true;
        }
        attack.resolve_dodging(n, dodges, dice, target)
    }

    /// Whether some attacker knocks out rather than kills.
    fn any_knock_out(&self) -> bool {
        self.shooters
            .iter()
            .any(|s| s.attack.intent == Intent::KnockOut)
    }
}

/// Where a volley stands: the target, the hits and misses sent back so
/// far, whether the target dodged, has tried its dodge, and whether the
/// attacker whose turn it is holds its attacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VolleyState {
    target: Target,
    hits: u8,
    back: u8,
    dodged: bool,
    dodge_tried: bool,
    holds: bool,
}

/// A volley as steps: every attacker's attacks in turn.
pub struct VolleyRule {
    volley: Volley,
    layout: Vec<(usize, u8)>,
    list: MetricList,
    m: [Metric; 8],
    hits: Vec<Metric>,
    scatter: Option<Metric>,
    dodged: Option<Metric>,
    spared: Option<Metric>,
}

impl VolleyRule {
    /// The metrics as the `attack` scenario lists them: hits up to every
    /// attack, scatter with an area attacker, the dodge with a dodge,
    /// `p_spared` with a knock-out intent.
    fn new(volley: Volley) -> Self {
        let layout = volley.layout();
        let mut list = MetricList::new();
        let d = &TURN_METRICS;
        let p_hit = list.add(&d[0]);
        let mean_hits = list.add(&d[1]);
        let hits = list.family(&d[2], 0..=layout.len() as u32);
        let m = [
            p_hit,
            mean_hits,
            list.add(&d[3]),
            list.add(&d[4]),
            list.add(&d[5]),
            list.add(&d[6]),
            list.add(&d[7]),
            list.add(&d[8]),
        ];
        let area = volley
            .shooters
            .iter()
            .any(|s| s.attack.kind == super::attack::Kind::Area);
        let scatter = area.then(|| list.add(&d[9]));
        let dodge = volley.shooters.iter().any(|s| s.attack.dodge.is_some());
        let dodged = dodge.then(|| list.add(&d[10]));
        let spared = volley.any_knock_out().then(|| list.add(&d[11]));
        VolleyRule {
            volley,
            layout,
            list,
            m,
            hits,
            scatter,
            dodged,
            spared,
        }
    }
}

impl Mechanic for VolleyRule {
    type State = VolleyState;

    fn start(&self) -> VolleyState {
        VolleyState {
            target: self.volley.fresh_target(),
            hits: 0,
            back: 0,
            dodged: false,
            dodge_tried: false,
            holds: false,
        }
    }

    fn steps(&self) -> usize {
        self.layout.len()
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut VolleyState) {
        let at = self.layout[i];
        if at.1 == 0 {
            // a turn that begins on a target already down holds its attacks
            s.holds = s.target.incapacitated();
        }
        if s.holds {
            return;
        }
        match self
            .volley
            .attack(at, dice, &mut s.target, &mut s.dodge_tried)
        {
            Shot::Hit => s.hits += 1,
            Shot::Miss { back } => s.back += u8::from(back),
            Shot::Dodged => s.dodged = true,
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &VolleyState, sink: &mut impl MetricSink) {
        let [
            p_hit,
            mean_hits,
            lost,
            nonlethal,
            durability,
            incap,
            dying,
            dead,
        ] = self.m;
        let t = &s.target;
        sink.record(p_hit, u64::from(s.hits > 0));
        sink.record(mean_hits, u64::from(s.hits));
        sink.record(self.hits[usize::from(s.hits)], 1);
        sink.record(lost, (self.volley.health() - t.health) as u64);
        sink.record(nonlethal, t.nonlethal as u64);
        sink.record(durability, t.durability as u64);
        sink.record(incap, u64::from(t.incapacitated()));
        sink.record(dying, u64::from(t.dying()));
        sink.record(dead, u64::from(t.dead()));
        if let Some(m) = self.scatter {
            sink.record(m, u64::from(s.back));
        }
        if let Some(m) = self.dodged {
            sink.record(m, u64::from(s.dodged));
        }
        if let Some(m) = self.spared {
            sink.record(m, u64::from(t.spared));
        }
    }
}

// ------------------------------------------------------------ turns to kill

/// P(down on round k).
const TURNS: MetricDecl = MetricDecl::probability(
    "turns={k}",
    "P(down on round {k})",
    "P(the target goes down on exactly round k), k = 1..turns",
);
/// P(down within k rounds).
const TAKEN_OUT_BY: MetricDecl = MetricDecl::probability(
    "taken_out_by_turn={k}",
    "P(down by round {k})",
    "P(the target goes down within k rounds), k = 1..turns: the turns-to-kill curve",
);
/// `turns={k}`'s leftover.
const TURNS_BEYOND: MetricDecl = MetricDecl::probability(
    "turns>{k}",
    "P(not down in {k} rounds)",
    "P(the target is not down within the rounds played)",
);
/// P(down within the rounds played).
const P_TAKEN_OUT: MetricDecl = MetricDecl::probability(
    "p_taken_out",
    "P(down)",
    "P(the target goes down (the until condition) within the rounds played)",
);

/// Every metric of turns to kill (besides the repeated rule's own).
fn turns_metrics() -> Vec<MetricDecl> {
    let mut m = vec![P_TAKEN_OUT];
    m.extend(FIGHT_METRICS);
    m.extend([TURNS, TURNS_BEYOND, TAKEN_OUT_BY]);
    m.extend(crate::engine::repeat_model::round_metrics("turns_played"));
    m
}

/// Rounds of AP followed: carried AP only grow from 0 and stop at most 6,
/// so every attacker's attacks a round are settled by the 8th round.
const SCHEDULE: usize = 8;

/// Builds turns to kill.
fn build_turns(p: &Params, variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let dead = p.need_word("until")? == "dead";
    let turns = p.need_int("turns")? as u8;
    let volley = read_volley(p, FightParams::decls(), |v| {
        let f = FightParams::read(v)?;
        let attack = f.attack.attack(variants)?;
        let wanted = match f.policy.as_str() {
            "all" => attack.rof,
            "one" => 1,
            _ => {
                return Err(ParamError::new(
                    crate::param_name!(FightParams.policy),
                    "policy = \"best\" is the one-attacker fight's (computed exactly per fixed number of attacks); in a volley each attacker plays \"one\" or \"all\"",
                ));
            }
        };
        Ok((attack, wanted))
    })?;
    if dead
        && volley
            .shooters
            .iter()
            .all(|s| s.attack.intent == Intent::KnockOut)
    {
        return Err(ParamError::new(
            "until",
            "every attacker knocks the target out rather than kill it (intent = \"knock_out\"), so it never dies: until = \"incapacitated\"",
        ));
    }
    Ok(Box::new(ForwardTurns(TurnsRule::model(
        volley, dead, turns,
    ))))
}

/// Where turns to kill stands: the target, its dodge this round, whether
/// the attacker whose turn it is holds its attacks, and the rounds played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TurnState {
    target: Target,
    dodge_tried: bool,
    holds: bool,
    turn: u8,
}

/// A volley every round, each attacker's AP recovered between rounds, until
/// the target is down or the rounds run out.
pub struct TurnsRule {
    volley: Volley,
    layout: Vec<(usize, u8)>,
    /// Each attacker's attacks on each round (the last repeats): "At the
    /// start of each turn ... the character recovers 4 AP"; "Any AP over 6
    /// are lost"; the first attack costs `attack_ap`, each extra 1.
    planned: Vec<[u8; SCHEDULE]>,
    /// Down is dead (Health -10), else incapacitated.
    dead: bool,
    turns: u8,
    list: MetricList,
    taken_out: Metric,
    fight: [Metric; 7],
    spared: Option<Metric>,
    on_turn: Vec<Metric>,
    beyond: Metric,
    by_turn: Vec<Metric>,
}

impl TurnsRule {
    /// The model: rounds repeated (round counts shown up to `turns`).
    fn model(volley: Volley, dead: bool, turns: u8) -> RepeatModel<TurnsRule> {
        let layout = volley.layout();
        let planned = volley
            .shooters
            .iter()
            .map(|s| {
                let (ap_cost, wanted) = (s.attack.attack_ap, s.attacks);
                let mut carried = 0;
                std::array::from_fn(|_| {
                    let ap = ap_at_turn_start(carried);
                    let n = affordable_attacks(ap, ap_cost, wanted);
                    carried = ap - attacks_cost(n, ap_cost);
                    n
                })
            })
            .collect();
        let mut list = MetricList::new();
        let taken_out = list.add(&P_TAKEN_OUT);
        let [own @ .., spared] = &FIGHT_METRICS;
        let fight = own.each_ref().map(|d| list.add(d));
        let spared = volley.any_knock_out().then(|| list.add(spared));
        let on_turn = list.family(&TURNS, 1..=u32::from(turns));
        let beyond = list.add_k(&TURNS_BEYOND, turns);
        let by_turn = list.family(&TAKEN_OUT_BY, 1..=u32::from(turns));
        let rule = TurnsRule {
            volley,
            layout,
            planned,
            dead,
            turns,
            list,
            taken_out,
            fight,
            spared,
            on_turn,
            beyond,
            by_turn,
        };
        RepeatModel::new(rule, usize::from(turns))
    }

    fn taken_out(&self, t: &Target) -> bool {
        if self.dead {
            t.dead()
        } else {
            t.incapacitated()
        }
    }

    /// The round from which every attacker's attacks stay the same.
    fn settled(&self) -> u8 {
        (0..SCHEDULE)
            .find(|&k| {
                self.planned
                    .iter()
                    .all(|p| p[k..].iter().all(|&n| n == p[k]))
            })
            .unwrap_or(SCHEDULE - 1) as u8
    }

    /// Attacker `j`'s attacks on round `turn` (0 the first).
    fn attacks_on(&self, j: usize, turn: u8) -> u8 {
        self.planned[j][usize::from(turn).min(SCHEDULE - 1)]
    }
}

impl Repeated for TurnsRule {
    type State = TurnState;

    const ROUND: &'static str = "turns_played";

    fn start(&self) -> TurnState {
        TurnState {
            target: self.volley.fresh_target(),
            dodge_tried: false,
            holds: false,
            turn: 0,
        }
    }

    fn over(&self, s: &TurnState) -> bool {
        self.taken_out(&s.target) || s.turn >= self.turns
    }

    fn sub_steps(&self) -> usize {
        self.layout.len()
    }

    fn sub_step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut TurnState) {
        let (j, n) = self.layout[i];
        if n >= self.attacks_on(j, s.turn) {
            return;
        }
        if n == 0 {
            s.holds = self.taken_out(&s.target);
        }
        if s.holds {
            return;
        }
        self.volley
            .attack((j, n), dice, &mut s.target, &mut s.dodge_tried);
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    /// Between rounds: the dodge is "Once per round"; AP follow the
    /// schedule by the round's number.
    fn end_round(&self, s: &mut TurnState) {
        s.dodge_tried = false;
        s.holds = false;
        s.turn += 1;
    }

    fn record(&self, s: &TurnState, sink: &mut impl MetricSink) {
        let t = &s.target;
        let out = self.taken_out(t);
        sink.record(self.taken_out, u64::from(out));
        let [dead, dying, ko, overwhelmed, lost, nonlethal, durability] = self.fight;
        sink.record(dead, u64::from(t.dead()));
        sink.record(dying, u64::from(t.dying()));
        sink.record(overwhelmed, u64::from(t.health > 0 && t.overwhelmed));
        sink.record(
            ko,
            u64::from(t.health > 0 && !t.overwhelmed && t.knocked_out()),
        );
        sink.record(lost, (self.volley.health() - t.health) as u64);
        sink.record(nonlethal, t.nonlethal as u64);
        sink.record(durability, t.durability as u64);
        if let Some(m) = self.spared {
            sink.record(m, u64::from(t.spared));
        }
        let taken_on = out.then_some(usize::from(s.turn));
        attackers::record_turn_taken(sink, taken_on, &self.on_turn, &self.by_turn, self.beyond);
    }
}

/// Turns to kill is solved forward, round by round ([`ForwardTurns`]):
/// the attackers' AP schedule reads the round only until it settles, so a
/// sub-step's law is kept by the state with its round held there.
impl TurnCounted for TurnsRule {
    fn turns(&self) -> usize {
        usize::from(self.turns)
    }

    fn law_key(&self, s: &TurnState) -> TurnState {
        let mut key = *s;
        key.turn = key.turn.min(self.settled());
        key
    }

    fn on_turn_of(&self, after: &TurnState, from: &TurnState) -> TurnState {
        let mut t = *after;
        t.turn = from.turn;
        t
    }
}

#[cfg(test)]
mod tests {
    use crate::systems::crisis::SEED;

    /// Every sentence of the seed the volley quotes is the seed's, word for
    /// word.
    #[test]
    fn the_quoted_rules_are_the_seeds() {
        crate::systems::seed_text::assert_quoted(
            SEED,
            &[
                "Each character and creature in a crisis have one turn per round",
                "Once every character has acted, a new round begins",
                "Cover is always relative to other targets. A character can be in total cover for an enemy, but in plain sight for another.",
                "Once per round you can try to dodge an incoming Area of Effect Attack",
                "You have to assign all Attacks to your targets first before you roll for them",
                "At the start of each turn, including the beginning of a Crisis, the character recovers 4 AP",
                "Any AP over 6 are lost",
                "Only Area of Effect Attacks can be dodged",
                "If the Health drops to -10, the creature immediately dies",
            ],
        );
    }
}
