//! The `volley` and `turns_to_kill` scenarios: units each with its own RC,
//! weapon, range and fire mode fire one after another at one target, whose
//! wounds carry from unit to unit, then the one pinning test their fire
//! brings; and, volley after volley, until the target is taken out.
//!
//! What carries: wounds. "Any hits that exceed this attribute are counted
//! as a wound (although this is discussed later, most units can only take
//! 2 wounds)": the target is out at `target_wounds` (default 2), and a unit
//! whose turn comes after that holds its fire (the target is down). The
//! pinning test is `pinning_fire`'s ([`pinning_target`]): "Increase the
//! target number by 1 for every unit over the first that is also firing",
//! counting every unit that fires (one out of reach, "it is too far for
//! the weapon to shoot", does not); "(NOTE: The unit only has to be hit,
//! not wounded)"; a target taken out takes none. A target already pinned
//! takes no further test ("they must take a test to avoid being pinned"):
//! it stays pinned until its side gets it up: "To get the unit unpinned,
//! you can spend a single AP to re-roll the WILL roll".
//!
//! Kry-Gothic has no turns ("Instead of the usual 'your turn, my turn'
//! style"): a turn here is one volley, every unit firing once, after which
//! the target's side spends up to `unpin_ap` AP re-rolling the WILL roll
//! that pinned it (against that roll's target), stopping at the first pass.
//!
//! Each unit is the `ranged` scenario's shot, read by its own code
//! ([`RangedParams::shot`]) from the target's parameters with the unit's
//! over them, so a volley of one unit is that scenario's shot, and N
//! identical units `pinning_fire`'s N units, where neither is taken out.
//!
//! Exact: a dynamic programme over the target's (hit, wounds), each unit's
//! law of (hit, wounds) from the ranged rule's attack law
//! ([`fire_law`]), then the test; turns to kill forward over (wounds,
//! pinned) turn by turn. Monte Carlo, reference: every unit's attacks on
//! real dice ([`fire_on`]) and the WILL dice. Fast, the volley: each
//! attacker's units' (hit, wounds) a 32-bit draw from their law on the
//! target's wounds before them (the rule's own [`Volley::fire_law_of`],
//! one attacker's turn of fire a draw, as D20's volley draws one),
//! every attacker drawing and one after the target is out adding nothing,
//! so a trial has no branch on its dice; the test a 32-bit draw of its
//! fail chance worked out from one die of the rule's own check. Turns to
//! kill, two turns or more: each turn a word, drawn from the turn's law on
//! the target's (wounds, pinning) as the forward evaluator works it out
//! ([`TurnsModel`]).

use super::dice::{Reading, attribute_check, p_attribute_check};
use super::fast::{p_check, record_counts, threshold};
use super::pinning_fire::{alias32, fire_law, fire_on};
use super::psych::{PinningHit, pinning_target};
use super::ranged::RangedRule;
use super::ranged::scenario::{MAX_KEPT_IN_ALL, RangedParams};
use crate::dice::{Alias, BatchedRoller, Lent, Metric, MetricSink, Roller, Tally};
use crate::engine::outcome_model::{OutcomeModel, Outcomes};
use crate::systems::attackers;
use crate::systems::{
    MetricDecl, MetricDef, MetricList, Model, ParamDecl, ParamError, ParamGroup, Params, Refusal,
    Sampler, Scenario, Variant,
};
use std::collections::BTreeMap;

/// The seed sections a volley follows.
const SEED: &str = "Chapter 6: Pinning; Chapter 5: Roll to hit; Roll to wound; Chapter 2: Body";

/// What each unit sets: its stat line and RC, its weapon, the range and
/// fire mode, whether it is pinned itself or flanking, its AP.
const EACH: &[&str] = &[
    "firer",
    "firer_rc",
    "weapon",
    "weapon_aim",
    "weapon_damage",
    "weapon_strength",
    "weapon_short_range",
    "weapon_long_range",
    "weapon_suppressive",
    "range",
    "fire_mode",
    "firer_pinned",
    "flanking",
    "fire_ap",
    "ap_budget",
];

/// The ranged shot's parameters a volley leaves out: a critical fail's
/// damage on the firer's own unit (a volley asks about the target).
const LEFT_OUT: &[&str] = &["firer_body", "firer_armour"];

/// Most to-hit dice kept in one volley (wounds are at most twice that,
/// and the dense count of outcomes stays small).
const MAX_KEPT: i64 = 250;

/// The target's own parameters besides the ranged shot's.
fn target_decls() -> Vec<ParamDecl> {
    vec![
        ParamDecl::int("target_will", 0, 30)
            .required()
            .about("the target's Willpower: dice rolled for the pinning test, the highest against the target number")
            .seed("Chapter 6: Pinning"),
        ParamDecl::flag("squad_leader")
            .about("the target is a squad leader: \"Squad leaders can never be pinned\"")
            .seed("Chapter 6: Pinning"),
        ParamDecl::int("target_wounds", 1, 30)
            .default("2")
            .about("wounds that take the target out (\"most units can only take 2 wounds\"); later units hold their fire")
            .seed("Chapter 2: Body"),
    ]
}

/// The `volley` scenario's parameters.
fn volley_params() -> Vec<ParamDecl> {
    let all: Vec<ParamDecl> = RangedParams::decls()
        .into_iter()
        .filter(|d| !LEFT_OUT.contains(&d.name.as_str()))
        .collect();
    let (each, mut target) = attackers::split(all, EACH);
    target.extend(target_decls());
    attackers::volley_decls(each, target)
}

/// The `turns_to_kill` scenario's parameters: a volley's, with when to
/// stop and the AP spent getting the target up between volleys.
fn turns_params() -> Vec<ParamDecl> {
    let mut decls = volley_params();
    decls.push(
        ParamDecl::choice("until", &["out", "wounded", "pinned_or_out"])
            .default("out")
            .about("what takes the target out: its wounds reached (out), its first wound, or pinned or out")
            .seed("Chapter 2: Body; Chapter 6: Pinning"),
    );
    decls.push(
        ParamDecl::int("turns", 1, 30)
            .default("8")
            .about("volleys fired at most: the curve's length")
            .seed("Chapter 6: Pinning"),
    );
    decls.push(
        ParamDecl::int("unpin_ap", 0, 30)
            .default("0")
            .about("AP the target's side spends after each volley re-rolling the WILL roll that pinned it, stopping at the first pass (\"you can spend a single AP to re-roll the WILL roll\")")
            .seed("Chapter 6: Pinning"),
    );
    decls
}

/// The test point both scenarios share: a heavy weapon (the autocannon,
/// 6K2, S2 given here) on RC 3 and five Average Joes with pistols at 5"
/// at an Average Joe (Body 2, Speed 3, WILL 3) with armour 1: six units,
/// the benchmarks' volley.
const GUN_AND_PISTOLS: &[(&str, &str)] = &[
    ("attackers", "gun,joes"),
    ("gun.weapon", "autocannon"),
    ("gun.weapon_strength", "2"),
    ("gun.firer_rc", "3"),
    ("gun.range", "10"),
    ("joes.count", "5"),
    ("joes.firer", "average_joe"),
    ("joes.weapon", "pistol"),
    ("joes.range", "5"),
    ("target", "average_joe"),
    ("target_armour", "1"),
];

/// The `volley` scenario.
pub const VOLLEY_SCENARIO: Scenario = Scenario {
    name: "volley",
    about: "units each with its own RC and weapon fire at one target: wounds carry from unit to unit, then the one pinning test (harder per unit firing)",
    seed_section: SEED,
    params: volley_params,
    metrics: || VOLLEY_METRICS.to_vec(),
    build: |p, v| {
        let volley = Volley::read(p, v)?;
        Ok(Box::new(VolleyModel::new(VolleyRule::new(volley))))
    },
    variants: &["seven_plus", "wound_target", "critical_pass", "pinning_hit"],
    test_points: &[
        GUN_AND_PISTOLS,
        // suppressive fire, a flanking unit, one out of reach, a sturdy target
        &[
            ("attackers", "sup,flank,far"),
            ("sup.weapon", "autocannon"),
            ("sup.weapon_strength", "2"),
            ("sup.weapon_suppressive", "true"),
            ("sup.fire_mode", "suppressive"),
            ("sup.firer", "average_joe"),
            ("sup.range", "10"),
            ("flank.weapon", "pistol"),
            ("flank.firer_rc", "4"),
            ("flank.range", "7"),
            ("flank.fire_mode", "snap"),
            ("flank.flanking", "true"),
            ("far.weapon", "pistol"),
            ("far.firer_rc", "3"),
            ("far.range", "30"),
            ("target_body", "3"),
            ("target_armour", "2"),
            ("target_speed", "6"),
            ("target_will", "4"),
            ("target_wounds", "3"),
            ("cover", "true"),
        ],
        // a squad leader: never pinned
        &[
            ("attackers", "joes"),
            ("joes.count", "2"),
            ("joes.firer", "average_joe"),
            ("joes.weapon", "pistol"),
            ("joes.range", "2"),
            ("target", "average_joe"),
            ("squad_leader", "true"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "the target's Body on an attacker",
            point: 0,
            set: &[("gun.target_body", "3")],
            unset: &[],
            field: "gun.target_body",
            words: &["the target's"],
        },
        Refusal {
            what: "more dice kept than one volley counts",
            point: 0,
            set: &[("joes.count", "20"), ("joes.weapon_aim", "20")],
            unset: &[],
            field: "joes.count",
            words: &["more than the 250"],
        },
        Refusal {
            what: "an attacker without a weapon",
            point: 0,
            set: &[],
            unset: &["gun.weapon", "gun.weapon_strength"],
            field: "gun.weapon_aim",
            words: &["gun.weapon_damage"],
        },
        Refusal {
            what: "suppressive fire from a weapon without it",
            point: 0,
            set: &[("joes.fire_mode", "suppressive")],
            unset: &[],
            field: "joes.fire_mode",
            words: &["suppressive fire needs a weapon capable of it"],
        },
    ],
    naive: super::naive::VOLLEY,
};

/// The `turns_to_kill` scenario.
pub const TURNS_TO_KILL_SCENARIO: Scenario = Scenario {
    name: "turns_to_kill",
    about: "a volley again and again, the target's side re-rolling its pinning WILL roll between, until the target is taken out",
    seed_section: SEED,
    params: turns_params,
    metrics: turns_metrics,
    build: |p, v| {
        let volley = Volley::read(p, v)?;
        let until = match p.need_word("until")?.as_str() {
            "wounded" => Until::Wounded,
            "pinned_or_out" => Until::PinnedOrOut,
            _ => Until::Out,
        };
        if until == Until::PinnedOrOut && volley.target_hit.is_none() {
            return Err(ParamError::new(
                "until",
                "this target is never pinned (a squad leader, or no unit in reach): \"Squad leaders can never be pinned\"; stop at \"out\" or \"wounded\"",
            ));
        }
        let turns = p.need_int("turns")? as u8;
        let unpin_ap = p.need_int("unpin_ap")? as u32;
        Ok(Box::new(TurnsModel::new(TurnsRule::new(
            volley, until, turns, unpin_ap,
        ))))
    },
    variants: &["seven_plus", "wound_target", "critical_pass", "pinning_hit"],
    test_points: &[
        GUN_AND_PISTOLS,
        &[
            ("attackers", "joes"),
            ("joes.count", "2"),
            ("joes.firer", "average_joe"),
            ("joes.weapon", "pistol"),
            ("joes.range", "5"),
            ("target", "average_joe"),
            ("target_armour", "2"),
            ("until", "pinned_or_out"),
            ("turns", "5"),
        ],
        &[
            ("attackers", "joes"),
            ("joes.firer", "average_joe"),
            ("joes.weapon", "pistol"),
            ("joes.range", "5"),
            ("target", "average_joe"),
            ("target_will", "2"),
            ("until", "wounded"),
            ("unpin_ap", "2"),
            ("turns", "6"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "a misspelt attacker",
            point: 0,
            set: &[("jose.firer_rc", "3")],
            unset: &[],
            field: "jose.firer_rc",
            words: &["did you mean 'joes'"],
        },
        Refusal {
            what: "a squad leader counted until pinned",
            point: 0,
            set: &[("squad_leader", "true"), ("until", "pinned_or_out")],
            unset: &[],
            field: "until",
            words: &["never pinned"],
        },
    ],
    naive: super::naive::TURNS_TO_KILL,
};

/// One kind of unit: its ranged shot and its law of (hit, wounds).
struct Kind {
    ranged: RangedRule,
    law: Vec<((bool, u16), f64)>,
}

/// An attacker's units for the fast samplers: its first unit, its count,
/// and its law's first column and columns by the target's wounds before it.
type Group = (usize, usize, Vec<(u32, u32)>);

/// A volley: the units in the order they fire, and the target.
pub struct Volley {
    kinds: Vec<Kind>,
    /// Each unit's kind, in firing order.
    order: Vec<usize>,
    /// Each attacker's units' law of (hit, wounds added), from each
    /// count of wounds the target may have before them, as 32-bit alias
    /// columns packed `wounds << 1 | hit`, one law's after another's.
    columns: Vec<(u64, u32, u32)>,
    /// Each attacker in firing order: its first unit, its count, and
    /// each law's first column and columns by the target's wounds before
    /// it (`0..out_at`).
    groups: Vec<Group>,
    /// Wounds that take the target out.
    out_at: u16,
    will: u32,
    reading: Reading,
    /// The test's target after a hit, and after no hit (`None`: no test).
    target_hit: Option<i32>,
    target_missed: Option<i32>,
    /// Most wounds the units can cause between them.
    most_wounds: u16,
}

impl Volley {
    /// The volley `p` describes.
    fn read(p: &Params, v: &Params) -> Result<Volley, ParamError> {
        let reads = RangedParams::decls();
        let list = attackers::attackers(p, &reads)?;
        let mut kinds = Vec::new();
        let mut order = Vec::new();
        let mut groups = Vec::new();
        let (mut kept, mut most_wounds, mut shooters) = (0i64, 0i64, 0i32);
        let mut reading = Reading::Table;
        for (k, a) in list.iter().enumerate() {
            let own = |e| a.owns(e, p.decls());
            let shot = RangedParams::read(&a.params)
                .and_then(|r| r.shot(v))
                .map_err(own)?;
            reading = shot.reading;
            let ranged = RangedRule::new(shot);
            let r = ranged.resolved();
            let unit_kept = i64::from(r.attacks) * i64::from(r.keep.max(0));
            if unit_kept > i64::from(MAX_KEPT_IN_ALL) {
                return Err(ParamError::new(
                    format!("{}.weapon_aim", a.name),
                    format!(
                        "{} attacks keeping up to {} dice each could keep {unit_kept} dice, more than the {MAX_KEPT_IN_ALL} one unit allows",
                        r.attacks, r.keep
                    ),
                ));
            }
            kept += unit_kept * i64::from(a.count);
            if kept > MAX_KEPT {
                return Err(ParamError::new(
                    format!("{}.count", a.name),
                    format!(
                        "the volley could keep {kept} to-hit dice, more than the {MAX_KEPT} one volley counts: fewer units or smaller weapons"
                    ),
                ));
            }
            if r.can_shoot {
                // "it is too far for the weapon to shoot": a unit out of
                // reach does not fire, so does not count for the test
                shooters += a.count as i32;
                // at most S wounds an attack, doubled on a critical pass
                most_wounds += i64::from(r.attacks)
                    * i64::from(r.keep.max(0).min(r.cap))
                    * 2
                    * i64::from(a.count);
            }
            let law = fire_law(&ranged);
            kinds.push(Kind { ranged, law });
            groups.push((order.len(), a.count as usize, Vec::new()));
            order.extend(std::iter::repeat_n(k, a.count as usize));
        }
        let leader = p.flag("squad_leader")?;
        // read only where a hit test can be taken, as pinning_fire does
        let counting = if leader || shooters == 0 {
            PinningHit::Rule
        } else {
            PinningHit::read(v)?
        };
        let mut volley = Volley {
            kinds,
            order,
            columns: Vec::new(),
            groups,
            out_at: p.need_int("target_wounds")? as u16,
            will: p.need_int("target_will")? as u32,
            reading,
            target_hit: pinning_target(true, shooters, leader, counting),
            target_missed: pinning_target(false, shooters, leader, counting),
            most_wounds: most_wounds as u16,
        };
        volley.lay_out_groups();
        Ok(volley)
    }

    /// Each attacker's law from each count of wounds before it, for the
    /// fast samplers: the rule's own [`Volley::fire_law_of`] over its
    /// units.
    fn lay_out_groups(&mut self) {
        let mut columns = Vec::new();
        for g in 0..self.groups.len() {
            let (first, count, _) = self.groups[g];
            let units = &self.order[first..first + count];
            let laws = (0..self.out_at)
                .map(|w0| {
                    let packed: Vec<(u32, f64)> = self
                        .fire_law_of(units, w0, u16::MAX)
                        .into_iter()
                        .map(|((hit, w), q)| (u32::from(w - w0) << 1 | u32::from(hit), q))
                        .collect();
                    let at = columns.len() as u32;
                    columns.extend(alias32(&packed));
                    (at, columns.len() as u32 - at)
                })
                .collect();
            self.groups[g].2 = laws;
        }
        self.columns = columns;
    }

    /// The test's target after the volley: none when the target is taken
    /// out (it is down) or pinned already.
    fn test(&self, hit: bool, wounds: u16, pinned: bool) -> Option<i32> {
        if wounds >= self.out_at || pinned {
            None
        } else if hit {
            self.target_hit
        } else {
            self.target_missed
        }
    }

    /// The law of (hit, wounds) after every unit fired, from `wounds`
    /// before the first; a unit whose turn comes after the target is out
    /// holds its fire. Wounds at most `cap`.
    fn fire_law(&self, wounds: u16, cap: u16) -> Vec<((bool, u16), f64)> {
        self.fire_law_of(&self.order, wounds, cap)
    }

    /// [`Volley::fire_law`] over the units of kinds `units` alone.
    fn fire_law_of(&self, units: &[usize], wounds: u16, cap: u16) -> Vec<((bool, u16), f64)> {
        let mut d: BTreeMap<(bool, u16), f64> = BTreeMap::from([((false, wounds), 1.0)]);
        for &k in units {
            let mut next: BTreeMap<(bool, u16), f64> = BTreeMap::new();
            for (&(h, w), &p) in &d {
                if w >= self.out_at {
                    *next.entry((h, w)).or_insert(0.0) += p;
                    continue;
                }
                for &((h2, w2), q) in &self.kinds[k].law {
                    *next.entry((h || h2, (w + w2).min(cap))).or_insert(0.0) += p * q;
                }
            }
            d = next;
        }
        d.into_iter().collect()
    }

    /// Every unit's fire on real dice, from `wounds` before the first.
    fn fire_on<R: Roller>(&self, dice: &mut R, mut wounds: u16) -> (bool, u16) {
        let mut hit = false;
        for &k in &self.order {
            if wounds >= self.out_at {
                break;
            }
            let (h, w) = fire_on(&self.kinds[k].ranged, dice);
            hit |= h;
            wounds += w;
        }
        (hit, wounds)
    }

    /// Every attacker's fire drawn from its units' law on the target's
    /// wounds so far, half a word an attacker, from `wounds` before the
    /// first, with no branch on the draws: every attacker draws, and one
    /// whose turn comes after the target is out adds nothing (it holds its
    /// fire), so a trial's words and branches are the same whatever its
    /// dice.
    #[inline(always)]
    fn fire_drawn(&self, halves: &mut Halves, words: &mut Lent, wounds: u16) -> (u32, u32) {
        let (mut hit, mut wounds) = (0u32, u32::from(wounds));
        let out = u32::from(self.out_at);
        for (_, _, laws) in &self.groups {
            let live = wounds < out;
            let (first, len) = laws[wounds.min(out - 1) as usize];
            let wide = u64::from(halves.next(words)) * u64::from(len);
            let (keep, own, alias) = self.columns[(first + (wide >> 32) as u32) as usize];
            let e = [own, alias][usize::from(u64::from(wide as u32) >= keep)];
            let e = e & u32::from(live).wrapping_neg();
            hit |= e & 1;
            wounds += e >> 1;
        }
        (hit, wounds)
    }
}

/// 32-bit draws, two from each word.
#[derive(Default)]
struct Halves {
    word: u64,
    left: bool,
}

impl Halves {
    #[inline(always)]
    fn next(&mut self, words: &mut Lent) -> u32 {
        if self.left {
            self.left = false;
            (self.word >> 32) as u32
        } else {
            self.word = words.next_word();
            self.left = true;
            self.word as u32
        }
    }
}

/// Every metric of the volley.
pub const VOLLEY_METRICS: [MetricDecl; 9] = [
    MetricDecl::probability(
        "p_hit",
        "P(target hit)",
        "P(at least one unit keeps a to-hit die): the test is against 5 + 1 per unit over the first",
    ),
    MetricDecl::probability(
        "p_test",
        "P(pinning test taken)",
        "P(the target must test: hit, or missed by 2 or more units; never a squad leader, nor a target taken out)",
    ),
    MetricDecl::probability(
        "p_pinned",
        "P(pinned)",
        "P(the target fails its pinning test)",
    ),
    MetricDecl::probability(
        "p_pinned_unhurt",
        "P(pinned, unwounded)",
        "P(pinned and no wound: the fire stalled the target without hurting it)",
    ),
    MetricDecl::probability("p_wound", "P(wound)", "P(at least one wound)"),
    MetricDecl::probability(
        "p_out",
        "P(taken out)",
        "P(the target's wounds reach target_wounds)",
    ),
    MetricDecl::probability(
        "p_pinned_or_out",
        "P(pinned or taken out)",
        "P(the target is pinned or taken out: out of the fight this turn)",
    ),
    MetricDecl::mean(
        "mean_wounds",
        "mean wounds",
        "expected wounds caused (a unit's beyond the target's last wound counted; units after it hold fire)",
    ),
    MetricDecl::probability("wounds={k}", "P({k} wounds)", "P(exactly k wounds)"),
];

/// What a volley did: any hit, wounds, and whether the target is pinned.
type VolleyOut = (bool, u16, bool);

/// The volley as a rule with its metric handles.
pub struct VolleyRule {
    volley: Volley,
    list: MetricList,
    m: [Metric; 8],
    wounds: Vec<Metric>,
}

impl VolleyRule {
    fn new(volley: Volley) -> Self {
        let mut list = MetricList::new();
        let m = std::array::from_fn(|i| list.add(&VOLLEY_METRICS[i]));
        let wounds = list.family(&VOLLEY_METRICS[8], 0..=u32::from(volley.most_wounds));
        VolleyRule {
            volley,
            list,
            m,
            wounds,
        }
    }
}

impl Outcomes for VolleyRule {
    type Out = VolleyOut;

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn sample<R: Roller>(&self, dice: &mut R) -> VolleyOut {
        let v = &self.volley;
        let (hit, wounds) = v.fire_on(dice, 0);
        let pinned = match v.test(hit, wounds, false) {
            Some(t) => !attribute_check(dice, v.will, t, v.reading),
            None => false,
        };
        (hit, wounds, pinned)
    }

    fn law(&self) -> Vec<(VolleyOut, f64)> {
        let v = &self.volley;
        let mut out = Vec::new();
        for ((hit, wounds), p) in v.fire_law(0, u16::MAX) {
            let fail = v
                .test(hit, wounds, false)
                .map_or(0.0, |t| 1.0 - p_attribute_check(v.will, t, v.reading));
            out.push(((hit, wounds, true), p * fail));
            out.push(((hit, wounds, false), p * (1.0 - fail)));
        }
        out.retain(|x| x.1 > 0.0);
        out
    }

    fn record(&self, o: &VolleyOut, sink: &mut impl MetricSink) {
        let &(hit, wounds, pinned) = o;
        let v = &self.volley;
        let out = wounds >= v.out_at;
        let [
            p_hit,
            p_test,
            p_pinned,
            unhurt,
            p_wound,
            p_out,
            either,
            mean,
        ] = self.m;
        sink.record(p_hit, u64::from(hit));
        sink.record(p_test, u64::from(v.test(hit, wounds, false).is_some()));
        sink.record(p_pinned, u64::from(pinned));
        sink.record(unhurt, u64::from(pinned && wounds == 0));
        sink.record(p_wound, u64::from(wounds > 0));
        sink.record(p_out, u64::from(out));
        sink.record(either, u64::from(out || pinned));
        sink.record(mean, u64::from(wounds));
        sink.record(self.wounds[usize::from(wounds)], 1);
    }
}

/// The fast sampler's name.
pub const UNIT_LAWS: &str = "volley unit laws, branch-free (each attacker's units' fire and the test a 32-bit draw from its law on the target's wounds, an attacker after the target is out adding nothing)";

/// Turns to kill's fast sampler's name (two turns or more).
pub const TURN_LAWS: &str = "turn laws (a volley with its test and re-rolls a word, drawn from its law on the target's wounds and pinning)";

/// 32-bit thresholds of failing the test after no hit and after a hit
/// (0 where none is taken), from one die of the rule's own check.
fn fail_thresholds(v: &Volley) -> [u64; 2] {
    let fail = |t: Option<i32>| t.map_or(0, |t| threshold(1.0 - p_check(v.will, t, v.reading)));
    [fail(v.target_missed), fail(v.target_hit)]
}

/// The volley model: the rule's exact law and reference sampler, and the
/// units drawn from their laws for the fast sampler, counted by the dense
/// index `(wounds << 1 | hit) << 1 | pinned`.
struct VolleyModel {
    model: OutcomeModel<VolleyRule>,
    fail: [u64; 2],
    ends: Vec<VolleyOut>,
}

impl VolleyModel {
    fn new(rule: VolleyRule) -> Self {
        let fail = fail_thresholds(&rule.volley);
        let ends = (0..(usize::from(rule.volley.most_wounds) + 1) * 4)
            .map(|i| (i >> 1 & 1 == 1, (i >> 2) as u16, i & 1 == 1))
            .collect();
        VolleyModel {
            model: OutcomeModel::new(rule),
            fail,
            ends,
        }
    }

    /// A trial's dense index: every unit and the test draw (a test not
    /// taken has no chance to fail), so a trial is the same number of
    /// half words and the same branches whatever its dice.
    #[inline(always)]
    fn trial(&self, halves: &mut Halves, words: &mut Lent) -> usize {
        let v = &self.model.rule().volley;
        let (hit, wounds) = v.fire_drawn(halves, words, 0);
        let fail = if wounds >= u32::from(v.out_at) {
            0
        } else {
            self.fail[hit as usize]
        };
        let pinned = u32::from(u64::from(halves.next(words)) < fail);
        ((wounds << 1 | hit) << 1 | pinned) as usize
    }
}

impl Model for VolleyModel {
    fn metrics(&self) -> &[MetricDef] {
        self.model.metrics()
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let mut counts = vec![0u64; self.ends.len()];
        let mut halves = Halves::default();
        roller.lend(|words| {
            for _ in 0..trials {
                counts[self.trial(&mut halves, words)] += 1;
            }
        });
        record_counts(self.model.rule(), &self.ends, &counts, trials, tally);
    }

    fn sampler(&self) -> Sampler {
        Sampler::Custom(UNIT_LAWS)
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.model.run_reference(roller, trials, tally);
    }

    fn exact(&self) -> Option<Vec<f64>> {
        self.model.exact()
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.model.sample_one(roller, values);
    }
}

/// What takes the target out in turns to kill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Until {
    /// Its wounds reach `target_wounds`.
    Out,
    /// Its first wound.
    Wounded,
    /// Pinned, or out.
    PinnedOrOut,
}

/// P(taken out on turn k).
const TURNS: MetricDecl = MetricDecl::probability(
    "turns={k}",
    "P(taken out on turn {k})",
    "P(taken out by exactly the k-th volley), k = 1..turns",
);
/// P(not taken out within the turns played).
const TURNS_BEYOND: MetricDecl = MetricDecl::probability(
    "turns>{k}",
    "P(not taken out in {k} turns)",
    "P(not taken out within the turns played)",
);
/// P(taken out within k turns).
const TAKEN_OUT_BY: MetricDecl = MetricDecl::probability(
    "taken_out_by_turn={k}",
    "P(taken out by turn {k})",
    "P(taken out within k volleys), k = 1..turns: the turns-to-kill curve",
);
/// Every metric of turns to kill but the families.
const TURNS_METRICS: [MetricDecl; 5] = [
    MetricDecl::probability(
        "p_taken_out",
        "P(taken out)",
        "P(taken out within the turns played)",
    ),
    MetricDecl::probability(
        "p_out",
        "P(wounds reached)",
        "P(the target's wounds reach target_wounds within the turns played)",
    ),
    MetricDecl::probability(
        "p_pinned_at_end",
        "P(still pinned at the end)",
        "P(not taken out, and pinned after the last volley and its re-rolls)",
    ),
    MetricDecl::mean(
        "mean_turns_pinned",
        "mean turns pinned",
        "expected volleys after which the target stays pinned (after its re-rolls), not taken out",
    ),
    MetricDecl::mean(
        "mean_turns_played",
        "mean turns played",
        "expected volleys fired until the target is taken out or the turns run out",
    ),
];

/// Every metric of turns to kill.
fn turns_metrics() -> Vec<MetricDecl> {
    let mut m = TURNS_METRICS.to_vec();
    m.extend([TURNS, TURNS_BEYOND, TAKEN_OUT_BY]);
    m
}

/// How turns to kill ended: turns played, taken out, wounds reached,
/// pinned at the end, turns ended pinned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct TurnsOut {
    played: u8,
    taken: bool,
    out: bool,
    pinned: bool,
    turns_pinned: u8,
}

impl TurnsOut {
    /// Its dense index.
    fn index(self) -> usize {
        (usize::from(self.played) << 8)
            | usize::from(self.turns_pinned) << 3
            | usize::from(self.taken) << 2
            | usize::from(self.out) << 1
            | usize::from(self.pinned)
    }

    fn from_index(i: usize) -> Self {
        TurnsOut {
            played: (i >> 8) as u8,
            turns_pinned: (i >> 3 & 31) as u8,
            taken: i >> 2 & 1 == 1,
            out: i >> 1 & 1 == 1,
            pinned: i & 1 == 1,
        }
    }
}

/// Where turns to kill stands between volleys: wounds (at most the
/// target's), the target number of the roll that pinned it (0: not
/// pinned), turns ended pinned.
type TurnState = (u16, i32, u8);

/// How a turn left the target: taken out, or going on to the next turn,
/// with its wounds and the target of the roll that pinned it (0: not
/// pinned; after the re-rolls where it goes on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Turn {
    Taken(u16, i32),
    Goes(u16, i32),
}

/// A volley every turn, re-rolls between, until taken out or the turns run
/// out.
struct TurnsRule {
    volley: Volley,
    until: Until,
    turns: u8,
    unpin_ap: u32,
    list: MetricList,
    m: [Metric; 5],
    on_turn: Vec<Metric>,
    beyond: Metric,
    by_turn: Vec<Metric>,
}

impl TurnsRule {
    fn new(volley: Volley, until: Until, turns: u8, unpin_ap: u32) -> Self {
        let mut list = MetricList::new();
        let m = std::array::from_fn(|i| list.add(&TURNS_METRICS[i]));
        let on_turn = list.family(&TURNS, 1..=u32::from(turns));
        let beyond = list.add_k(&TURNS_BEYOND, turns);
        let by_turn = list.family(&TAKEN_OUT_BY, 1..=u32::from(turns));
        TurnsRule {
            volley,
            until,
            turns,
            unpin_ap,
            list,
            m,
            on_turn,
            beyond,
            by_turn,
        }
    }

    fn taken(&self, wounds: u16, pin: i32) -> bool {
        match self.until {
            Until::Out => wounds >= self.volley.out_at,
            Until::Wounded => wounds >= 1,
            Until::PinnedOrOut => wounds >= self.volley.out_at || pin > 0,
        }
    }

    /// How a trial ended after `played` volleys in state `s`.
    fn end(&self, played: u8, (wounds, pin, turns_pinned): TurnState) -> TurnsOut {
        TurnsOut {
            played,
            taken: self.taken(wounds, pin),
            out: wounds >= self.volley.out_at,
            pinned: pin > 0 && !self.taken(wounds, pin),
            turns_pinned,
        }
    }

    /// Every way one turn from `w0` wounds and pinned at `pin0` can go,
    /// `each(how, p q r ...)` with `p` times its chance: every unit's fire
    /// ([`Volley::fire_law`]) with its chance `q`, the pinning test's
    /// outcome `r`, and where the target is not taken out, the re-rolls'.
    fn turn(&self, w0: u16, pin0: i32, p: f64, mut each: impl FnMut(Turn, f64)) {
        let v = &self.volley;
        for ((hit, wounds), q) in v.fire_law(w0, v.out_at) {
            let fail = v
                .test(hit, wounds, pin0 > 0)
                .map(|t| (t, 1.0 - p_attribute_check(v.will, t, v.reading)));
            let branches = match fail {
                Some((t, f)) => vec![(t, f), (pin0, 1.0 - f)],
                None => vec![(pin0, 1.0)],
            };
            for (pin, r) in branches {
                let pr = p * q * r;
                if pr == 0.0 {
                    continue;
                }
                if self.taken(wounds, pin) {
                    each(Turn::Taken(wounds, pin), pr);
                    continue;
                }
                let still = self.p_still_pinned(pin);
                for (pin, r) in [(pin, still), (0, 1.0 - still)] {
                    if pr * r > 0.0 {
                        each(Turn::Goes(wounds, pin), pr * r);
                    }
                }
            }
        }
    }

    /// After a volley that left `wounds` and `pin`, not taken out: pinned
    /// still after the re-rolls, with what probability.
    fn p_still_pinned(&self, pin: i32) -> f64 {
        if pin == 0 {
            return 0.0;
        }
        let pass = p_attribute_check(self.volley.will, pin, self.volley.reading);
        (1.0 - pass).powi(self.unpin_ap as i32)
    }
}

impl Outcomes for TurnsRule {
    type Out = TurnsOut;

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn sample<R: Roller>(&self, dice: &mut R) -> TurnsOut {
        let v = &self.volley;
        let mut s: TurnState = (0, 0, 0);
        for turn in 1..=self.turns {
            let (hit, wounds) = v.fire_on(dice, s.0);
            s.0 = wounds.min(v.out_at);
            if let Some(t) = v.test(hit, s.0, s.1 > 0)
                && !attribute_check(dice, v.will, t, v.reading)
            {
                s.1 = t;
            }
            if self.taken(s.0, s.1) {
                return self.end(turn, s);
            }
            // "you can spend a single AP to re-roll the WILL roll"
            if s.1 > 0 {
                for _ in 0..self.unpin_ap {
                    if attribute_check(dice, v.will, s.1, v.reading) {
                        s.1 = 0;
                        break;
                    }
                }
            }
            s.2 += u8::from(s.1 > 0);
        }
        self.end(self.turns, s)
    }

    /// Forward over the target's states, volley by volley.
    fn law(&self) -> Vec<(TurnsOut, f64)> {
        let mut ends: BTreeMap<TurnsOut, f64> = BTreeMap::new();
        let mut d: BTreeMap<TurnState, f64> = BTreeMap::from([((0, 0, 0), 1.0)]);
        for turn in 1..=self.turns {
            let mut next: BTreeMap<TurnState, f64> = BTreeMap::new();
            for (&(w0, pin0, tp), &p) in &d {
                self.turn(w0, pin0, p, |after, pr| match after {
                    Turn::Taken(wounds, pin) => {
                        *ends.entry(self.end(turn, (wounds, pin, tp))).or_insert(0.0) += pr;
                    }
                    Turn::Goes(wounds, pin) => {
                        let s = (wounds, pin, tp + u8::from(pin > 0));
                        *next.entry(s).or_insert(0.0) += pr;
                    }
                });
            }
            d = next;
        }
        for (s, p) in d {
            *ends.entry(self.end(self.turns, s)).or_insert(0.0) += p;
        }
        ends.into_iter().collect()
    }

    fn record(&self, o: &TurnsOut, sink: &mut impl MetricSink) {
        let [taken, out, pinned, turns_pinned, played] = self.m;
        sink.record(taken, u64::from(o.taken));
        sink.record(out, u64::from(o.out));
        sink.record(pinned, u64::from(o.pinned));
        sink.record(turns_pinned, u64::from(o.turns_pinned));
        sink.record(played, u64::from(o.played));
        let taken_on = o.taken.then_some(usize::from(o.played));
        attackers::record_turn_taken(sink, taken_on, &self.on_turn, &self.by_turn, self.beyond);
    }
}

/// Turns to kill as a model: the rule's exact law (forward over the
/// target's states) and reference sampler, and a fast sampler.
///
/// Fast, two turns or more: each turn a step of the chain over the
/// target's (wounds, pinning) between turns, drawn from that turn's exact
/// law on it (the units' fire, the test and the re-rolls, as [`TurnsRule`]'s
/// forward evaluator works them out from each state: [`TurnsRule::turn`]):
/// a word and one alias column a turn, never the whole trial from its
/// final law. One turn: the trial would be one such draw, so each unit and
/// the test are drawn instead ([`Volley::fire_drawn`]) and each re-roll
/// from its chance.
struct TurnsModel {
    model: OutcomeModel<TurnsRule>,
    fail: [u64; 2],
    /// 32-bit thresholds of passing a re-roll, by the pinning target.
    repass: Vec<u64>,
    ends: Vec<TurnsOut>,
    laws: std::sync::OnceLock<TurnLaws>,
}

/// A taken-out turn's code: this bit, then the low three bits of its end's
/// dense index ([`TurnsOut::index`]); a turn that goes on codes its state.
const TAKEN: u32 = 1 << 31;

/// Each state between turns with its turn's law, for the fast sampler.
struct TurnLaws {
    /// Every state's alias columns (64-bit threshold, own code, alias
    /// code), one state's after another's.
    columns: Vec<(u64, u32, u32)>,
    /// Each state's columns: the first, and how many.
    at: Vec<(u32, u32)>,
    /// Each state's end where the turns run out there: the low three bits
    /// of [`TurnsOut::index`].
    end: Vec<u32>,
    /// Whether the target is pinned there (a turn ended pinned).
    pinned: Vec<u32>,
}

impl TurnLaws {
    /// Every state a trial reaches from the start, each turn's law once.
    fn new(rule: &TurnsRule) -> Self {
        let low = |wounds: u16, pin: i32| rule.end(0, (wounds, pin, 0)).index() as u32;
        let mut keys: Vec<(u16, i32)> = vec![(0, 0)];
        let mut ids: BTreeMap<(u16, i32), u32> = BTreeMap::from([((0, 0), 0)]);
        let mut laws = TurnLaws {
            columns: Vec::new(),
            at: Vec::new(),
            end: Vec::new(),
            pinned: Vec::new(),
        };
        let mut at = 0;
        while at < keys.len() {
            let (w0, pin0) = keys[at];
            at += 1;
            let mut law: BTreeMap<Turn, f64> = BTreeMap::new();
            rule.turn(w0, pin0, 1.0, |how, p| *law.entry(how).or_insert(0.0) += p);
            let coded: Vec<(u32, f64)> = law
                .into_iter()
                .map(|(how, p)| match how {
                    Turn::Taken(wounds, pin) => (TAKEN | low(wounds, pin), p),
                    Turn::Goes(wounds, pin) => {
                        let next = keys.len() as u32;
                        let id = *ids.entry((wounds, pin)).or_insert_with(|| {
                            keys.push((wounds, pin));
                            next
                        });
                        (id, p)
                    }
                })
                .collect();
            let first = laws.columns.len() as u32;
            laws.columns.extend(
                Alias::new(&coded)
                    .columns()
                    .map(|(keep, &own, &alias)| (keep, own, alias)),
            );
            laws.at.push((first, laws.columns.len() as u32 - first));
            laws.end.push(low(w0, pin0));
            laws.pinned.push(u32::from(pin0 > 0));
        }
        laws
    }
}

impl TurnsModel {
    fn new(rule: TurnsRule) -> Self {
        let v = &rule.volley;
        let fail = fail_thresholds(v);
        let most = v.target_hit.max(v.target_missed).unwrap_or(0).max(0);
        let repass = (0..=most)
            .map(|t| threshold(p_check(v.will, t, v.reading)))
            .collect();
        let ends = (0..(usize::from(rule.turns) + 1) << 8)
            .map(TurnsOut::from_index)
            .collect();
        TurnsModel {
            model: OutcomeModel::new(rule),
            fail,
            repass,
            ends,
            laws: std::sync::OnceLock::new(),
        }
    }

    /// Whether each turn is drawn from its law (two turns or more).
    fn by_turns(&self) -> bool {
        self.model.rule().turns > 1
    }

    /// A trial of turn draws: its end's dense index.
    #[inline(always)]
    fn trial_by_turns(&self, laws: &TurnLaws, words: &mut Lent) -> usize {
        let turns = u32::from(self.model.rule().turns);
        let (mut s, mut pinned) = (0usize, 0u32);
        for turn in 1..=turns {
            let (first, len) = laws.at[s];
            let wide = u128::from(words.next_word()) * u128::from(len);
            let (keep, own, alias) = laws.columns[(first + (wide >> 64) as u32) as usize];
            let code = [own, alias][usize::from(wide as u64 >= keep)];
            if code & TAKEN != 0 {
                return (turn << 8 | pinned << 3 | code & 7) as usize;
            }
            s = code as usize;
            pinned += laws.pinned[s];
        }
        (turns << 8 | pinned << 3 | laws.end[s]) as usize
    }

    /// A trial of unit draws: its end's dense index.
    fn trial(&self, halves: &mut Halves, words: &mut Lent) -> usize {
        let rule = self.model.rule();
        let v = &rule.volley;
        let mut s: TurnState = (0, 0, 0);
        for turn in 1..=rule.turns {
            let (hit, wounds) = v.fire_drawn(halves, words, s.0);
            s.0 = (wounds as u16).min(v.out_at);
            if let Some(t) = v.test(hit == 1, s.0, s.1 > 0)
                && u64::from(halves.next(words)) < self.fail[hit as usize]
            {
                s.1 = t;
            }
            if rule.taken(s.0, s.1) {
                return rule.end(turn, s).index();
            }
            if s.1 > 0 {
                let pass = self.repass[s.1 as usize];
                for _ in 0..rule.unpin_ap {
                    if u64::from(halves.next(words)) < pass {
                        s.1 = 0;
                        break;
                    }
                }
            }
            s.2 += u8::from(s.1 > 0);
        }
        rule.end(rule.turns, s).index()
    }
}

impl Model for TurnsModel {
    fn metrics(&self) -> &[MetricDef] {
        self.model.metrics()
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let mut counts = vec![0u64; self.ends.len()];
        if self.by_turns() {
            let laws = self.laws.get_or_init(|| TurnLaws::new(self.model.rule()));
            roller.lend(|words| {
                for _ in 0..trials {
                    counts[self.trial_by_turns(laws, words)] += 1;
                }
            });
        } else {
            let mut halves = Halves::default();
            roller.lend(|words| {
                for _ in 0..trials {
                    counts[self.trial(&mut halves, words)] += 1;
                }
            });
        }
        record_counts(self.model.rule(), &self.ends, &counts, trials, tally);
    }

    fn sampler(&self) -> Sampler {
        Sampler::Custom(if self.by_turns() {
            TURN_LAWS
        } else {
            UNIT_LAWS
        })
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.model.run_reference(roller, trials, tally);
    }

    fn exact(&self) -> Option<Vec<f64>> {
        self.model.exact()
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.model.sample_one(roller, values);
    }
}

#[cfg(test)]
mod tests {
    use crate::systems::krygothic::{RULES, SEED};
    use crate::systems::testing::{exact, model};

    /// Every sentence the volley rules quote is the seed's.
    #[test]
    fn the_quoted_rules_are_the_seeds() {
        crate::systems::seed_text::assert_quoted(
            SEED,
            &[
                "Any hits that exceed this attribute are counted as a wound (although this is discussed later, most units can only take 2 wounds)",
                "Increase the target number by 1 for every unit over the first that is also firing",
                "(NOTE: The unit only has to be hit, not wounded)",
                "it is too far for the weapon to shoot",
                "they must take a test to avoid being pinned",
                "To get the unit unpinned, you can spend a single AP to re-roll the WILL roll",
                "Instead of the usual 'your turn, my turn' style",
                "Squad leaders can never be pinned",
            ],
        );
    }

    /// One turn is drawn unit by unit (a turn's draw would be the trial's
    /// law), and agrees with the exact value: every ending's count within
    /// six standard deviations of its exact share, at a fixed seed.
    #[test]
    fn one_turn_draws_its_units_and_agrees_with_the_exact_value() {
        use crate::dice::{BatchedRoller, Tally};
        let mut pairs = super::GUN_AND_PISTOLS.to_vec();
        pairs.push(("turns", "1"));
        pairs.push(("unpin_ap", "2"));
        let m = model(&RULES, "turns_to_kill", &pairs);
        assert_eq!(
            m.sampler(),
            crate::systems::Sampler::Custom(super::UNIT_LAWS)
        );
        let n = 400_000u64;
        let mut t = Tally::new(m.metrics().len());
        m.run_chunk(&mut BatchedRoller::new(3, &[1]), n, &mut t);
        for (i, def) in m.metrics().iter().enumerate() {
            if def.kind != crate::engine::MetricKind::Probability {
                continue;
            }
            let p = exact(m.as_ref(), &def.name);
            let got = t.sum(i) as f64 / n as f64;
            let sd = (p * (1.0 - p) / n as f64).sqrt().max(1e-9);
            assert!((got - p).abs() < 6.0 * sd, "{}: {got} vs {p}", def.name);
        }
    }

    /// Turns to kill's first turn is the volley: P(taken out on turn 1)
    /// is the volley's P(out), and its P(pinned or out) with until =
    /// pinned_or_out.
    #[test]
    fn the_first_turn_is_the_volley() {
        let pairs = super::GUN_AND_PISTOLS;
        let volley = model(&RULES, "volley", pairs);
        let turns = model(&RULES, "turns_to_kill", pairs);
        let a = exact(volley.as_ref(), "p_out");
        let b = exact(turns.as_ref(), "turns=1");
        assert!((a - b).abs() < 1e-12, "{a} against {b}");
        let mut pinned = pairs.to_vec();
        pinned.push(("until", "pinned_or_out"));
        let turns = model(&RULES, "turns_to_kill", &pinned);
        let a = exact(volley.as_ref(), "p_pinned_or_out");
        let b = exact(turns.as_ref(), "turns=1");
        assert!((a - b).abs() < 1e-12, "{a} against {b}");
    }
}
