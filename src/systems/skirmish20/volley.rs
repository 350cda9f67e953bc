//! The `volley` and `turns_to_kill` scenarios: a mixed squad (several
//! kinds of attacker, each with its own count, weapon and firer) fires into
//! one squad, and, turn after turn, until the squad is shaken, broken or
//! its Hero dead.
//!
//! Each attacker is the `squad_under_fire` scenario's shooters, read by the
//! same code ([`squad_of`]) from the target squad's parameters with its own
//! over them and its count as `shooters`, so a volley of one attacker is
//! that scenario's first turn, and the volley chains the attackers' turns
//! of fire on one [`SquadState`]. What a further hit does to a squad
//! already hit is the squad's own rule:
//!
//! - WOUND ALLOCATION: "if figures take wounds and some were already
//!   wounded the defender chooses whether to have more wounded figures or
//!   add the wounds to the existing wounded figures and kill them. The
//!   exception is that if a "Kill" is scored it has to be given to an
//!   unwounded figure if one exists in range" (variant `wound_allocation`);
//! - the Hero: "If there is an "Officer" or other "Hero" character present
//!   alongside common troopers roll 1D6 for each attack, on a roll of 6 the
//!   attack goes against the Hero character otherwise one or more of the
//!   common troopers", the seed's own example a mixed volley ("6 Necrons
//!   fire 2AP's into a squad of human troopers lead by a "Hero" veteran
//!   saergant. Roll 12D6");
//! - blasts and templates cover others of the squad as `squad_under_fire`
//!   has them (`others_under_template`, each attacker's own).
//!
//! Between turns (`turns_to_kill`): destroyed Necrons roll to repair at
//! the turn's start, wounded Necrons self-heal at its end, morale is read
//! ("Once a squad has lost at least 50% of it's force wounded or dead it
//! is shaken", "Once a squad falls below 35% then it must run away. It can
//! not shoot at all"), and a jammed weapon spends the next turn unjamming
//! (a weapon lost for good fires no more), each kind of attacker's own.
//!
//! Exact: dynamic programming over the squad's counts, each attacker's
//! turn of fire the `squad_under_fire` law (the law of its D20s that were
//! not a 20, then as many draws of one firing's law, cached per squad
//! state). Monte Carlo: each attacker's turn of fire drawn from that law
//! (a volley), each turn from its law (turns to kill), states met seldom
//! played on real dice; the reference plays the real dice shot by shot.

use super::shared_params::{FirerParams, WeaponParams};
use super::squad::{Hero, Shooters, Squad, SquadParams, SquadState, squad_of};
use crate::dice::{BatchedRoller, Expectation, Metric, MetricSink, Roller, Tally, Times};
use crate::engine::walk::{Counts, Law, SharedLaws, Walk};
use crate::engine::{EXACT_WORK, NoExact};
use crate::systems::attackers::{self, MAX_ATTACKERS};
use crate::systems::{
    MetricDecl, MetricDef, MetricList, Model, ParamDecl, ParamError, ParamGroup, ParamValue,
    Params, Refusal, Sampler, Scenario, TrialValues,
};
use std::collections::BTreeMap;

/// The seed sections a volley follows.
const SEED: &str = "WOUND ALLOCATION; RANGED COMBAT WEAPONS FACTOR CHART; EFFECT OF HIT CHART; MORALE; NECRON SPECIAL RULES";

/// What each attacker sets besides its weapon and firer: how many of the
/// squad its blast or template covers.
const EACH: &[&str] = &["others_under_template", "others_partly_under"];

/// The `squad_under_fire` parameters a volley sets itself: each attacker's
/// count is its shooters, and a volley is one turn.
const LEFT_OUT: &[&str] = &["shooters", "turns"];

/// The `squad_under_fire` parameters split between each attacker (the
/// weapon, the firer, the blast's cover) and the target squad.
fn split() -> (Vec<ParamDecl>, Vec<ParamDecl>) {
    let mut names: Vec<String> = WeaponParams::decls().into_iter().map(|d| d.name).collect();
    names.extend(FirerParams::decls().into_iter().map(|d| d.name));
    let mut each: Vec<&str> = names.iter().map(String::as_str).collect();
    each.extend(EACH);
    let all: Vec<ParamDecl> = SquadParams::decls()
        .into_iter()
        .filter(|d| !LEFT_OUT.contains(&d.name.as_str()))
        .collect();
    attackers::split(all, &each)
}

/// The `volley` scenario's parameters.
fn volley_params() -> Vec<ParamDecl> {
    let (each, target) = split();
    attackers::volley_decls(each, target)
}

/// The `turns_to_kill` scenario's parameters: a volley's, with when to stop.
fn turns_params() -> Vec<ParamDecl> {
    let mut decls = volley_params();
    decls.push(
        ParamDecl::choice("until", &["broken", "shaken", "hero_dead"])
            .default("broken")
            .about("what takes the squad out: broken (below 35% left standing: it runs away, Necrons phase out), shaken (at least 50% dead or wounded; not Necrons), or its Hero dead for good")
            .seed("MORALE; UNIT COHESION"),
    );
    decls.push(
        ParamDecl::int("turns", 1, 30)
            .default("8")
            .about("turns played at most: the curve's length")
            .seed("TURN SEQUENCE"),
    );
    decls
}

/// The test point both scenarios share: four riflemen with Bolt Rifles,
/// a Heavy Bolter (its large blast over one more) and a sergeant with a
/// Plasma Pistol at five Necrons (power armour) and their Lord.
const SQUAD_AT_NECRONS: &[(&str, &str)] = &[
    ("attackers", "riflemen,heavy,sergeant"),
    ("riflemen.count", "4"),
    ("riflemen.weapon", "bolt_rifle"),
    ("riflemen.range", "10"),
    ("heavy.weapon", "heavy_bolter"),
    ("heavy.range", "20"),
    ("heavy.others_under_template", "1"),
    ("sergeant.weapon", "plasma_pistol"),
    ("sergeant.range", "8"),
    ("armour", "power"),
    ("troopers", "5"),
    ("hero", "true"),
    ("necrons", "true"),
];

/// Mixed weapons with a blast at men with a sergeant.
const BLAST_AT_MEN: &[(&str, &str)] = &[
    ("attackers", "rifles,launcher"),
    ("rifles.count", "2"),
    ("rifles.weapon", "laser_assault_rifle"),
    ("rifles.range", "20"),
    ("launcher.weapon", "grenade_launcher"),
    ("launcher.range", "20"),
    ("launcher.others_under_template", "2"),
    ("launcher.others_partly_under", "1"),
    ("armour", "std"),
    ("troopers", "6"),
    ("hero", "true"),
];

/// The `volley` scenario.
pub const VOLLEY_SCENARIO: Scenario = Scenario {
    name: "volley",
    about: "a mixed squad fires one turn into a squad: each attack's D6 picks the Hero on a 6, the squad's wounds carry from shot to shot",
    seed_section: SEED,
    params: volley_params,
    metrics: volley_metrics,
    build: |p, v| Ok(Box::new(VolleyModel::new(volley(p, v)?))),
    variants: &["blast_roll", "wound_allocation"],
    test_points: &[
        SQUAD_AT_NECRONS,
        BLAST_AT_MEN,
        // a squad that starts with casualties, a missile's lock-on
        &[
            ("attackers", "missile,pistols"),
            ("missile.weapon", "missile_launcher"),
            ("missile.range", "20"),
            ("missile.others_under_template", "1"),
            ("pistols.count", "2"),
            ("pistols.weapon", "bolt_pistol"),
            ("pistols.range", "6"),
            ("armour", "storm"),
            ("troopers", "5"),
            ("troopers_wounded", "2"),
            ("squad_strength", "8"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "the squad's armour on an attacker",
            point: 0,
            set: &[("heavy.armour", "std")],
            unset: &[],
            field: "heavy.armour",
            words: &["the target's"],
        },
        Refusal {
            what: "an attacker beyond its weapon's range",
            point: 0,
            set: &[("sergeant.range", "20")],
            unset: &[],
            field: "sergeant.range",
            words: &["maximum range of 12"],
        },
        Refusal {
            what: "an attacker's blast without the troopers under it",
            point: 1,
            set: &[],
            unset: &[
                "launcher.others_under_template",
                "launcher.others_partly_under",
            ],
            field: "launcher.others_under_template",
            words: &["covers others of the squad", "0 for none"],
        },
        Refusal {
            what: "an attacker without a weapon",
            point: 0,
            set: &[],
            unset: &["heavy.weapon"],
            field: "heavy.weapon_row",
            words: &["the weapon's chart row", "krunch invents none"],
        },
    ],
    naive: super::naive::VOLLEY,
};

/// The `turns_to_kill` scenario.
pub const TURNS_TO_KILL_SCENARIO: Scenario = Scenario {
    name: "turns_to_kill",
    about: "a mixed squad's volley every turn, repair, self-heal, morale and jams between, until the squad is broken, shaken or its Hero dead",
    seed_section: SEED,
    params: turns_params,
    metrics: turns_metrics,
    build: |p, v| {
        let until = match p.need_word("until")?.as_str() {
            "shaken" => Until::Shaken,
            "hero_dead" => Until::HeroDead,
            _ => Until::Broken,
        };
        let volley = volley(p, v)?;
        let target = volley.target();
        if until == Until::Shaken && target.necrons {
            return Err(ParamError::new(
                "until",
                "\"Necrons ignore the 50% rule altogether\": a Necron squad is never shaken (until = \"broken\" or \"hero_dead\")",
            ));
        }
        if until == Until::HeroDead && !target.hero {
            return Err(ParamError::new(
                "until",
                "until = \"hero_dead\" needs a Hero in the squad (hero = true)",
            ));
        }
        let turns = p.need_int("turns")? as u8;
        Ok(Box::new(TurnsModel::new(volley, until, turns)))
    },
    variants: &["blast_roll", "wound_allocation"],
    test_points: &[
        SQUAD_AT_NECRONS,
        &[
            ("attackers", "rifles,launcher"),
            ("rifles.count", "2"),
            ("rifles.weapon", "laser_assault_rifle"),
            ("rifles.range", "20"),
            ("launcher.weapon", "grenade_launcher"),
            ("launcher.range", "20"),
            ("launcher.others_under_template", "1"),
            ("armour", "std"),
            ("troopers", "5"),
            ("hero", "true"),
            ("until", "hero_dead"),
            ("turns", "5"),
        ],
        &[
            ("attackers", "pistols,plasma"),
            ("pistols.count", "2"),
            ("pistols.weapon", "bolt_pistol"),
            ("pistols.range", "6"),
            ("plasma.weapon", "plasma_pistol"),
            ("plasma.range", "6"),
            ("armour", "std"),
            ("troopers", "4"),
            ("until", "shaken"),
            ("turns", "4"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "a Necron squad until shaken",
            point: 0,
            set: &[("until", "shaken")],
            unset: &[],
            field: "until",
            words: &["ignore the 50% rule"],
        },
        Refusal {
            what: "until the Hero is dead, without a Hero",
            point: 2,
            set: &[("until", "hero_dead")],
            unset: &[],
            field: "until",
            words: &["needs a Hero"],
        },
        Refusal {
            what: "a misspelt attacker",
            point: 0,
            set: &[("rifleman.range", "10")],
            unset: &[],
            field: "rifleman.range",
            words: &["did you mean 'riflemen'"],
        },
    ],
    naive: super::naive::TURNS_TO_KILL,
};

/// Each kind of attacker's weapons between turns (jammed, lost), in the
/// order listed.
pub type Guns = [Shooters; MAX_ATTACKERS];

/// A volley: each kind of attacker as `squad_under_fire`'s shooters, in
/// the order listed, all at one squad.
pub struct Volley {
    groups: Vec<Squad>,
}

/// Each squad state's firing law, one table a kind of attacker.
type FiringLaws = Vec<BTreeMap<SquadState, Vec<(SquadState, f64)>>>;

/// The volley `p` describes: each attacker read as `squad_under_fire`
/// reads its shooters (the target's values with the attacker's own over
/// them, its count the shooters, one turn).
fn volley(p: &Params, variants: &Params) -> Result<Volley, ParamError> {
    let reads = SquadParams::decls();
    let list = attackers::attackers(p, &reads)?;
    let mut groups = Vec::new();
    for a in &list {
        let mut params = a.params.clone();
        params.set("shooters", ParamValue::Int(i64::from(a.count)));
        params.set("turns", ParamValue::Int(1));
        groups.push(squad_of(&params, variants).map_err(|e| a.owns(e, p.decls()))?);
    }
    Ok(Volley { groups })
}

impl Volley {
    /// The squad fired at (every attacker reads the same).
    fn target(&self) -> &Squad {
        &self.groups[0]
    }

    fn firing_laws(&self) -> FiringLaws {
        vec![BTreeMap::new(); self.groups.len()]
    }

    /// The exact law of a turn from `joint`: destroyed Necrons' repair,
    /// each kind of attacker's fire in turn, the end of the turn (self-heal
    /// and morale); a broken squad is shot no more, so its attackers'
    /// weapons no longer matter.
    fn turn_law(
        &self,
        joint: &BTreeMap<(Guns, SquadState), f64>,
        laws: &mut FiringLaws,
        work: &mut u64,
    ) -> Result<BTreeMap<(Guns, SquadState), f64>, NoExact> {
        let target = self.target();
        let mut d: BTreeMap<(Guns, SquadState), f64> = BTreeMap::new();
        for (&(g, st), &p) in joint {
            for (st2, q) in target.repair_law(&st) {
                *d.entry((g, st2)).or_insert(0.0) += p * q;
            }
        }
        for (k, squad) in self.groups.iter().enumerate() {
            d = self.fire_law(k, squad, d, &mut laws[k], work)?;
        }
        let mut out = BTreeMap::new();
        for ((g, mut st), p) in d {
            target.end_turn(&mut st);
            let g = if st.broken { Guns::default() } else { g };
            *out.entry((g, st)).or_insert(0.0) += p;
        }
        Ok(out)
    }

    /// Attacker `k`'s turn of fire on `d`.
    fn fire_law(
        &self,
        k: usize,
        squad: &Squad,
        d: BTreeMap<(Guns, SquadState), f64>,
        laws: &mut BTreeMap<SquadState, Vec<(SquadState, f64)>>,
        work: &mut u64,
    ) -> Result<BTreeMap<(Guns, SquadState), f64>, NoExact> {
        let mut by: BTreeMap<Guns, BTreeMap<SquadState, f64>> = BTreeMap::new();
        for ((g, st), p) in d {
            *by.entry(g).or_default().entry(st).or_insert(0.0) += p;
        }
        let mut next = BTreeMap::new();
        for (g, squads) in by {
            squad.turn_of_fire(g[k], squads, laws, work, |sh2, st, p| {
                let mut g2 = g;
                g2[k] = sh2;
                *next.entry((g2, st)).or_insert(0.0) += p;
            })?;
        }
        Ok(next)
    }

    /// A turn on real dice, as `squad_under_fire` plays it: repair, each
    /// kind of attacker's shooters shot by shot (those unjamming first),
    /// the end of the turn.
    fn play_turn(&self, dice: &mut impl Roller, g: &mut Guns, st: &mut SquadState) {
        let target = self.target();
        target.repair(st, dice);
        for (k, squad) in self.groups.iter().enumerate() {
            squad.fire(st, &mut g[k], dice);
        }
        target.end_turn(st);
        if st.broken {
            *g = Guns::default();
        }
    }

    /// Figures fired at: the troopers and the Hero.
    fn fired_at(&self) -> u32 {
        let t = self.target();
        u32::from(t.troopers) + u32::from(t.hero)
    }
}

/// The volley's metrics.
const VOLLEY_METRICS: [MetricDecl; 7] = [
    MetricDecl::mean(
        "mean_dead",
        "mean dead",
        "expected figures dead or destroyed after the volley (Necrons may yet repair)",
    ),
    MetricDecl::mean(
        "mean_casualties",
        "mean dead or wounded",
        "expected figures dead, destroyed or wounded after the volley (after Necrons self-heal)",
    ),
    MetricDecl::probability(
        "p_hero_dead",
        "P(Hero dead)",
        "P(the Hero is dead or destroyed after the volley)",
    ),
    MetricDecl::probability(
        "p_shaken",
        "P(shaken)",
        "P(at least 50% of the squad dead or wounded after the volley; Necrons ignore it)",
    ),
    MetricDecl::probability(
        "p_broken",
        "P(running)",
        "P(fewer than 35% of the squad left standing after the volley: running away, or Necrons phased out)",
    ),
    MetricDecl::probability(
        "p_wiped_out",
        "P(every figure down)",
        "P(every figure fired at dead or destroyed)",
    ),
    MetricDecl::probability(
        "dead={k}",
        "P({k} dead)",
        "P(exactly k figures dead or destroyed after the volley)",
    ),
];

fn volley_metrics() -> Vec<MetricDecl> {
    VOLLEY_METRICS.to_vec()
}

/// Whether the Hero is down (dead, or a destroyed Necron).
fn hero_down(st: &SquadState) -> bool {
    matches!(st.hero, Hero::Dead | Hero::Destroyed)
}

/// A volley as a model.
pub struct VolleyModel {
    v: Volley,
    list: MetricList,
    mean_dead: Metric,
    mean_casualties: Metric,
    hero_dead: Option<Metric>,
    shaken: Option<Metric>,
    broken: Metric,
    wiped_out: Metric,
    dead: Vec<Metric>,
    /// Each attacker's turn of fire's law from each squad met, keyed
    /// `(attacker, squad)`.
    laws: SharedLaws<(usize, SquadState)>,
}

/// Where a volley's walk stands: the attackers fired so far, the squad.
type Node = (usize, SquadState);

impl VolleyModel {
    fn new(v: Volley) -> Self {
        let mut list = MetricList::new();
        let [md, mc, hd, sh, br, wo, dk] = &VOLLEY_METRICS;
        let mean_dead = list.add(md);
        let mean_casualties = list.add(mc);
        let target = v.target();
        let hero_dead = target.hero.then(|| list.add(hd));
        let shaken = (!target.necrons).then(|| list.add(sh));
        let broken = list.add(br);
        let wiped_out = list.add(wo);
        let dead = list.family(dk, 0..=v.fired_at());
        VolleyModel {
            v,
            list,
            mean_dead,
            mean_casualties,
            hero_dead,
            shaken,
            broken,
            wiped_out,
            dead,
            laws: SharedLaws::default(),
        }
    }

    /// Records the squad after the volley, its turn ended.
    fn record(&self, st: &SquadState, sink: &mut impl MetricSink) {
        let dead = self.v.target().dead_count(st);
        let wounded = u64::from(st.wounded) + u64::from(st.hero == Hero::Wounded);
        sink.record(self.mean_dead, dead);
        sink.record(self.mean_casualties, dead + wounded);
        if let Some(m) = self.hero_dead {
            sink.record(m, u64::from(hero_down(st)));
        }
        if let Some(m) = self.shaken {
            sink.record(m, u64::from(st.shaken));
        }
        sink.record(self.broken, u64::from(st.broken));
        sink.record(self.wiped_out, u64::from(st.standing() == 0));
        sink.record(self.dead[dead as usize], 1);
    }

    /// The squad after the volley on real dice, its turn ended.
    fn trial(&self, dice: &mut impl Roller) -> SquadState {
        let mut st = self.v.target().start();
        self.v.play_turn(dice, &mut Guns::default(), &mut st);
        st
    }

    /// Attacker `k`'s turn of fire from `st`: the exact law.
    fn step_law(&self, k: usize, st: &SquadState) -> Option<Vec<(Node, f64)>> {
        let mut laws = BTreeMap::new();
        let mut out: BTreeMap<SquadState, f64> = BTreeMap::new();
        self.v.groups[k]
            .turn_of_fire(
                Shooters::default(),
                BTreeMap::from([(*st, 1.0)]),
                &mut laws,
                &mut 0,
                |_, st2, p| *out.entry(st2).or_insert(0.0) += p,
            )
            .ok()?;
        Some(out.into_iter().map(|(s, p)| ((k + 1, s), p)).collect())
    }
}

impl Model for VolleyModel {
    fn metrics(&self) -> &[MetricDef] {
        self.list.defs()
    }

    /// Each attacker's turn of fire drawn from its exact law once its
    /// squad is warm (real dice before), the turn's end applied to where
    /// the walks ended.
    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let v = &self.v;
        let mut walk: Walk<Node> = Walk::default();
        // a volley starts on an unhurt squad: no Necron to repair
        let start = walk.id(&(0, v.target().start()));
        let law = |(k, st): &Node| -> Option<Law<Node>> {
            self.laws.get(&(*k, *st), || self.step_law(*k, st))
        };
        let play = |(k, st): &Node, r: &mut BatchedRoller| {
            let mut t = *st;
            v.groups[*k].fire(&mut t, &mut Shooters::default(), r);
            (k + 1, t)
        };
        let same = |n: &Node| *n;
        walk.run_steps(start, v.groups.len(), trials, roller, law, play, same);
        for ((_, st), count) in walk.ends() {
            let mut st = *st;
            v.target().end_turn(&mut st);
            self.record(
                &st,
                &mut Times {
                    tally: &mut *tally,
                    count,
                },
            );
        }
        tally.add_trials(trials);
    }

    fn sampler(&self) -> Sampler {
        Sampler::StepLaws
    }

    fn exact(&self) -> Option<Vec<f64>> {
        self.exact_or_why().ok()
    }

    /// Dynamic programming over the squad's counts, attacker by attacker.
    fn exact_or_why(&self) -> Result<Vec<f64>, NoExact> {
        let v = &self.v;
        let mut work = 0;
        let start = BTreeMap::from([((Guns::default(), v.target().start()), 1.0)]);
        let end = v.turn_law(&start, &mut v.firing_laws(), &mut work)?;
        let mut e = Expectation::new(self.list.len());
        for ((_, st), p) in &end {
            e.set_weight(*p);
            self.record(st, &mut e);
        }
        Ok(e.into_values())
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        let st = self.trial(roller);
        self.record(&st, &mut TrialValues(values));
    }
}

/// What takes the squad out in turns to kill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Until {
    /// Below 35% left standing: running away, or Necrons phased out.
    Broken,
    /// At least 50% dead or wounded (not Necrons).
    Shaken,
    /// The Hero dead for good (a destroyed Necron Lord may yet repair).
    HeroDead,
}

/// P(taken out on turn k).
const TURNS: MetricDecl = MetricDecl::probability(
    "turns={k}",
    "P(taken out on turn {k})",
    "P(taken out at the end of exactly turn k), k = 1..turns",
);
/// P(taken out within k turns).
const TAKEN_OUT_BY: MetricDecl = MetricDecl::probability(
    "taken_out_by_turn={k}",
    "P(taken out by turn {k})",
    "P(taken out within k turns), k = 1..turns: the turns-to-kill curve",
);
/// `turns={k}`'s leftover.
const TURNS_BEYOND: MetricDecl = MetricDecl::probability(
    "turns>{k}",
    "P(not taken out in {k} turns)",
    "P(not taken out within the turns played)",
);
const P_TAKEN_OUT: MetricDecl = MetricDecl::probability(
    "p_taken_out",
    "P(taken out)",
    "P(taken out within the turns played)",
);
const P_BROKEN_FIRST: MetricDecl = MetricDecl::probability(
    "p_broken_first",
    "P(runs before taken out)",
    "P(the squad runs away or phases out before it is taken out: it is shot no more)",
);
const P_WEAPONS_LOST: MetricDecl = MetricDecl::probability(
    "p_weapons_lost",
    "P(every weapon lost first)",
    "P(not taken out, every attacker's weapon lost for good)",
);
const MEAN_DEAD_AT_END: MetricDecl = MetricDecl::mean(
    "mean_dead",
    "mean dead when play stops",
    "expected figures dead or destroyed when play stops",
);
const MEAN_TURNS: MetricDecl = MetricDecl::mean(
    "mean_turns_played",
    "mean turns played",
    "expected turns played until taken out, broken first, every weapon lost, or the turns run out",
);
const TURNS_PLAYED: MetricDecl = MetricDecl::probability(
    "turns_played={k}",
    "P(play stops after {k} turns)",
    "P(play stops after exactly k turns)",
);

fn turns_metrics() -> Vec<MetricDecl> {
    vec![
        P_TAKEN_OUT,
        P_BROKEN_FIRST,
        P_WEAPONS_LOST,
        MEAN_DEAD_AT_END,
        TURNS,
        TURNS_BEYOND,
        TAKEN_OUT_BY,
        MEAN_TURNS,
        TURNS_PLAYED,
    ]
}

/// Where turns to kill stands at a turn's end: each kind of attacker's
/// weapons, the squad, the turns played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TurnState {
    guns: Guns,
    st: SquadState,
    turn: u8,
}

/// Turns to kill as a model.
pub struct TurnsModel {
    v: Volley,
    until: Until,
    turns: u8,
    list: MetricList,
    taken_out: Metric,
    broken_first: Metric,
    weapons_lost: Metric,
    mean_dead: Metric,
    on_turn: Vec<Metric>,
    beyond: Metric,
    by_turn: Vec<Metric>,
    mean_turns: Metric,
    played: Vec<Metric>,
    /// Each turn's law from each state met.
    laws: SharedLaws<TurnState>,
}

impl TurnsModel {
    fn new(v: Volley, until: Until, turns: u8) -> Self {
        let mut list = MetricList::new();
        let taken_out = list.add(&P_TAKEN_OUT);
        let broken_first = list.add(&P_BROKEN_FIRST);
        let weapons_lost = list.add(&P_WEAPONS_LOST);
        let mean_dead = list.add(&MEAN_DEAD_AT_END);
        let on_turn = list.family(&TURNS, 1..=u32::from(turns));
        let beyond = list.add_k(&TURNS_BEYOND, turns);
        let by_turn = list.family(&TAKEN_OUT_BY, 1..=u32::from(turns));
        let mean_turns = list.add(&MEAN_TURNS);
        let played = list.family(&TURNS_PLAYED, 1..=u32::from(turns));
        TurnsModel {
            v,
            until,
            turns,
            list,
            taken_out,
            broken_first,
            weapons_lost,
            mean_dead,
            on_turn,
            beyond,
            by_turn,
            mean_turns,
            played,
            laws: SharedLaws::default(),
        }
    }

    fn start(&self) -> TurnState {
        TurnState {
            guns: Guns::default(),
            st: self.v.target().start(),
            turn: 0,
        }
    }

    /// Whether the squad is taken out, read at a turn's end.
    fn taken_out(&self, s: &TurnState) -> bool {
        match self.until {
            Until::Broken => s.st.broken,
            Until::Shaken => s.st.shaken,
            Until::HeroDead => s.st.hero == Hero::Dead,
        }
    }

    /// Every attacker's weapon lost for good.
    fn all_lost(&self, s: &TurnState) -> bool {
        self.v
            .groups
            .iter()
            .zip(&s.guns)
            .all(|(g, sh)| sh.lost >= g.shooters)
    }

    /// Play stops: taken out; the squad running (or phased out: "It can
    /// not shoot at all", and it is shot no more); every weapon lost, save
    /// for a destroyed Necron Lord whose repair roll is still to come; or
    /// the turns run out.
    fn over(&self, s: &TurnState) -> bool {
        self.taken_out(s)
            || s.st.broken
            || s.turn >= self.turns
            || (self.all_lost(s) && s.st.hero != Hero::Destroyed)
    }

    fn record(&self, s: &TurnState, sink: &mut impl MetricSink) {
        let out = self.taken_out(s);
        sink.record(self.taken_out, u64::from(out));
        sink.record(self.broken_first, u64::from(!out && s.st.broken));
        sink.record(
            self.weapons_lost,
            u64::from(!out && !s.st.broken && self.all_lost(s)),
        );
        sink.record(self.mean_dead, self.v.target().dead_count(&s.st));
        let k = usize::from(s.turn);
        let taken_on = out.then_some(k);
        attackers::record_turn_taken(sink, taken_on, &self.on_turn, &self.by_turn, self.beyond);
        sink.record(self.mean_turns, k as u64);
        sink.record(self.played[k - 1], 1);
    }

    /// The exact law of a turn from `s`.
    fn turn_law(&self, s: &TurnState) -> Option<Vec<(TurnState, f64)>> {
        let joint = BTreeMap::from([((s.guns, s.st), 1.0)]);
        let law = self
            .v
            .turn_law(&joint, &mut self.v.firing_laws(), &mut 0)
            .ok()?;
        Some(
            law.into_iter()
                .map(|((guns, st), p)| {
                    let turn = s.turn + 1;
                    (TurnState { guns, st, turn }, p)
                })
                .collect(),
        )
    }

    fn play(&self, dice: &mut impl Roller, s: &mut TurnState) {
        self.v.play_turn(dice, &mut s.guns, &mut s.st);
        s.turn += 1;
    }

    fn trial(&self, dice: &mut impl Roller) -> TurnState {
        let mut s = self.start();
        while !self.over(&s) {
            self.play(dice, &mut s);
        }
        s
    }
}

impl Model for TurnsModel {
    fn metrics(&self) -> &[MetricDef] {
        self.list.defs()
    }

    /// Each turn drawn from its exact law once its state is warm (real
    /// dice before), walked wide.
    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let mut walk: Walk<TurnState> = Walk::default();
        walk.set_wide(true);
        let start = walk.id(&self.start());
        let law =
            |s: &TurnState| -> Option<Law<TurnState>> { self.laws.get(s, || self.turn_law(s)) };
        let play = |s: &TurnState, r: &mut BatchedRoller| {
            let mut t = *s;
            self.play(r, &mut t);
            t
        };
        let same = |s: &TurnState| *s;
        let over = |s: &TurnState| self.over(s);
        let mut lengths = Counts::default();
        walk.run_until_over(
            start,
            trials,
            roller,
            law,
            play,
            same,
            over,
            &mut lengths,
            None,
        );
        for (s, count) in walk.ends() {
            self.record(
                s,
                &mut Times {
                    tally: &mut *tally,
                    count,
                },
            );
        }
        tally.add_trials(trials);
    }

    fn sampler(&self) -> Sampler {
        Sampler::WideRoundLaws
    }

    fn exact(&self) -> Option<Vec<f64>> {
        self.exact_or_why().ok()
    }

    /// Forward, turn by turn, over (weapons, squad), every firing law
    /// kept across turns; the states where play stops recorded as met.
    fn exact_or_why(&self) -> Result<Vec<f64>, NoExact> {
        let v = &self.v;
        let mut e = Expectation::new(self.list.len());
        let mut laws = v.firing_laws();
        let mut work = 0u64;
        let mut d = BTreeMap::from([((Guns::default(), v.target().start()), 1.0)]);
        for k in 1..=self.turns {
            let next = v.turn_law(&d, &mut laws, &mut work)?;
            work += next.len() as u64;
            if work > EXACT_WORK {
                return Err(NoExact::TooMuchWork { limit: EXACT_WORK });
            }
            d = BTreeMap::new();
            for ((guns, st), p) in next {
                let s = TurnState { guns, st, turn: k };
                if self.over(&s) {
                    e.set_weight(p);
                    self.record(&s, &mut e);
                } else {
                    d.insert((guns, st), p);
                }
            }
        }
        Ok(e.into_values())
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        let s = self.trial(roller);
        self.record(&s, &mut TrialValues(values));
    }
}

#[cfg(test)]
mod tests {

    /// Every sentence of the seed the volley quotes is the seed's, word for
    /// word (whitespace aside): wound allocation, the Hero's D6, the seed's
    /// mixed volley and morale between turns. Skipped, and said, without
    /// ../shared; failing under CI=true.
    #[test]
    fn the_quoted_rules_are_the_seeds() {
        crate::systems::seed_text::assert_quoted(
            super::super::SEED,
            &[
                "if figures take wounds and some were already wounded the defender chooses whether to have more wounded figures or add the wounds to the existing wounded figures and kill them",
                "roll 1D6 for each attack, on a roll of 6 the attack goes against the Hero character otherwise one or more of the common troopers",
                "fire 2AP's into a squad of human troopers lead by a \"Hero\" veteran saergant. Roll 12D6",
                "Once a squad has lost at least 50% of it's force wounded or dead it is shaken",
                "Once a squad falls below 35% then it must run away. It can not shoot at all",
            ],
        );
    }
}
