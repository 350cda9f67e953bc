//! The `pinning_fire` scenario: several units fire at one target, and the
//! pinning test their fire brings, as one chain. Chapter 6: "When a unit
//! is shot at, they must take a test to avoid being pinned. The more units
//! they are shot at by, the higher chance they have of being pinned": one
//! test after the units have fired, against 5 + 1 per unit over the first
//! when any of them hit (the unit "only has to be hit, not wounded"), or,
//! when none hit, against 3 + 1 per unit beyond the second from two units
//! on ([`pinning_target`]). Each unit fires as the `ranged` scenario's
//! shot (its fire mode, so suppressive fire's "increase their RC attribute
//! by 2 points" raises the chance to hit and so to pin, and it wounds only
//! on a critical pass: "do NOT roll to wound. The only time you are
//! allowed to roll to wound is if you get a critical hit ... If the unit is
//! hit, follow the pinning rules as if they have been struck by normal
//! fire"). A unit whose weapon cannot reach ("it is too far for the weapon
//! to shoot") does not fire: the target is not shot at, and takes no test.
//!
//! Exact: one unit's law of (hit, wounds) from the ranged rule's attack
//! law, convolved over the units, then the test's exact pass chance on
//! each branch. Monte Carlo, reference: every unit's attacks on real dice,
//! then the WILL dice. Fast ([`UnitDraws`]): each unit's (hit, wounds) a
//! 32-bit draw from that unit's law (an alias table), the test a 32-bit
//! draw of its fail chance worked out from one die of the rule's own check.

use super::dice::{Reading, attribute_check, p_attribute_check};
use super::fast::{p_check, record_counts, threshold};
use super::psych::{PinningHit, pinning_target};
use super::ranged::RangedRule;
use super::ranged::scenario::RangedParams;
use crate::dice::{Alias, BatchedRoller, Metric, MetricSink, Roller, Tally};
use crate::engine::outcome_model::{OutcomeModel, Outcomes};
use crate::systems::{
    MetricDecl, MetricDef, MetricList, Model, ParamError, ParamGroup, Params, Refusal, Sampler,
    Scenario, Variant,
};
use std::collections::BTreeMap;

const PINNING: &str = "Chapter 6: Pinning";

/// The `pinning_fire` scenario: what it asks, its parameters and metrics,
/// its builder, test points, bad inputs and naive loop.
pub const PINNING_FIRE_SCENARIO: Scenario = Scenario {
    name: "pinning_fire",
    about: "several units fire at one target: hits, wounds, and the one pinning test their fire brings (harder per unit firing)",
    seed_section: "Chapter 6: Pinning; Chapter 5: Roll to hit; Roll to wound; Suppressive fire",
    params: PinningFireParams::decls,
    metrics: || METRICS.to_vec(),
    build,
    variants: &["seven_plus", "wound_target", "critical_pass", "pinning_hit"],
    test_points: &[
        &[
            ("weapon", "pistol"),
            ("firer_rc", "3"),
            ("range", "4"),
            ("target_body", "3"),
            ("target_armour", "3"),
            ("target_speed", "3"),
            ("target_will", "4"),
            ("units", "3"),
        ],
        &[
            ("weapon", "autocannon"),
            ("weapon_strength", "2"),
            ("weapon_suppressive", "true"),
            ("fire_mode", "suppressive"),
            ("firer", "average_joe"),
            ("target", "average_joe"),
            ("range", "10"),
            ("units", "2"),
        ],
        &[
            ("weapon", "pistol"),
            ("firer_rc", "4"),
            ("range", "5"),
            ("target", "average_joe"),
            ("fire_mode", "snap"),
            ("units", "4"),
            ("squad_leader", "true"),
        ],
        &[
            ("weapon", "pistol"),
            ("firer_rc", "2"),
            ("range", "30"),
            ("target", "average_joe"),
            ("units", "2"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "no units firing",
            point: 0,
            set: &[("units", "0")],
            unset: &[],
            field: "units",
            words: &["0 is impossible"],
        },
        Refusal {
            what: "the target's Willpower left out",
            point: 0,
            set: &[],
            unset: &["target_will"],
            field: "target_will",
            words: &["missing: set target_will"],
        },
        Refusal {
            what: "more dice kept than one model allows",
            point: 0,
            set: &[("units", "10"), ("weapon_aim", "20")],
            unset: &[],
            field: "units",
            words: &["more than the 120"],
        },
    ],
    naive: super::naive::PINNING_FIRE,
};

crate::param_struct! {
    /// Parameters of the pinning_fire scenario: each unit's shot (the
    /// `ranged` scenario's parameters), how many units fire it, and the
    /// target's Willpower for the test.
    pub struct PinningFireParams {
        ..shot: RangedParams,
        units: i64 = int(1, 12)
            .default("2")
            .about("units firing at the target, each with this shot: a hit test is 5 + 1 per unit over the first; with no hit, 2 or more units bring a test against 3 + 1 per unit beyond the second")
            .seed(PINNING),
        target_will: i64 = int(0, 30)
            .required()
            .about("the target's Willpower: dice rolled for the pinning test, the highest against the target number")
            .seed(PINNING),
        squad_leader: bool = flag()
            .about("the target is a squad leader: \"Squad leaders can never be pinned\"")
            .seed(PINNING),
    }
}

/// Every metric of the scenario.
pub const METRICS: [MetricDecl; 7] = [
    MetricDecl::probability(
        "p_hit",
        "P(target hit)",
        "P(at least one unit keeps a to-hit die): the test is against 5 + 1 per unit over the first",
    ),
    MetricDecl::probability(
        "p_test",
        "P(pinning test taken)",
        "P(the target must test: hit, or missed by 2 or more units; never a squad leader)",
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
    MetricDecl::mean(
        "mean_wounds",
        "mean wounds",
        "expected wounds from all the units' fire",
    ),
    MetricDecl::probability("wounds={k}", "P({k} wounds)", "P(exactly k wounds)"),
];

/// What the fire did: any hit, wounds, and whether the target is pinned.
type FireOut = (bool, u16, bool);

/// The chain: `units` shots of one rule, then the test.
struct PinningFire {
    ranged: RangedRule,
    units: u32,
    will: u32,
    /// The test's target after a hit, and after no hit (`None`: no test).
    target_hit: Option<i32>,
    target_missed: Option<i32>,
    reading: Reading,
    list: MetricList,
    m: [Metric; 6],
    wounds: Vec<Metric>,
}

impl PinningFire {
    /// One unit's fire: whether any attack kept a to-hit die, and wounds.
    fn unit_fire<R: Roller>(&self, dice: &mut R) -> (bool, u16) {
        fire_on(&self.ranged, dice)
    }

    /// One unit's law of (hit, wounds).
    fn unit_law(&self) -> Vec<((bool, u16), f64)> {
        fire_law(&self.ranged)
    }

    fn target(&self, hit: bool) -> Option<i32> {
        if hit {
            self.target_hit
        } else {
            self.target_missed
        }
    }
}

/// One unit's fire with `ranged`'s shot on real dice: whether any attack
/// kept a to-hit die, and its wounds (none out of reach).
pub(crate) fn fire_on<R: Roller>(ranged: &RangedRule, dice: &mut R) -> (bool, u16) {
    let r = ranged.resolved();
    if !r.can_shoot {
        return (false, 0);
    }
    let (mut hit, mut wounds) = (false, 0u16);
    for _ in 0..r.attacks {
        let o = ranged.attack(dice);
        hit |= o.hits > 0;
        wounds += u16::from(o.wounds);
    }
    (hit, wounds)
}

/// One unit's law of (hit, wounds) with `ranged`'s shot: the rule's exact
/// attack law over the unit's attacks.
pub(crate) fn fire_law(ranged: &RangedRule) -> Vec<((bool, u16), f64)> {
    let r = ranged.resolved();
    if !r.can_shoot {
        return vec![((false, 0), 1.0)];
    }
    let one: Vec<((bool, u16), f64)> = fold(
        ranged
            .attack_law()
            .into_iter()
            .map(|(o, p)| ((o.hits > 0, u16::from(o.wounds)), p)),
    );
    power(&one, r.attacks.into())
}

/// A law of packed outcomes as 32-bit alias columns: (threshold, own
/// outcome, alias), the 64-bit thresholds rounded to 32 bits (an
/// outcome's probability within `n * 2^-33`).
pub(crate) fn alias32(law: &[(u32, f64)]) -> Vec<(u64, u32, u32)> {
    Alias::new(law)
        .columns()
        .map(|(keep, &own, &alias)| {
            let keep = if keep == u64::MAX {
                1 << 32
            } else {
                ((u128::from(keep) + (1 << 31)) >> 32) as u64
            };
            (keep, own, alias)
        })
        .collect()
}

/// An outcome of `columns` ([`alias32`]) from a 32-bit uniform `d`: its
/// high part (by multiply-high) picks a column, its low part decides
/// between the column's own outcome and its alias.
#[inline(always)]
pub(crate) fn pick32(columns: &[(u64, u32, u32)], d: u32) -> u32 {
    let wide = u64::from(d) * columns.len() as u64;
    let (keep, own, alias) = columns[(wide >> 32) as usize];
    if u64::from(wide as u32) < keep {
        own
    } else {
        alias
    }
}

/// Outcomes merged by value.
fn fold(outcomes: impl Iterator<Item = ((bool, u16), f64)>) -> Vec<((bool, u16), f64)> {
    let mut by: BTreeMap<(bool, u16), f64> = BTreeMap::new();
    for (o, p) in outcomes {
        *by.entry(o).or_insert(0.0) += p;
    }
    by.into_iter().collect()
}

/// The law of `n` independent draws of `one`, hits or-ed and wounds added.
fn power(one: &[((bool, u16), f64)], n: u32) -> Vec<((bool, u16), f64)> {
    let mut all = vec![((false, 0u16), 1.0)];
    for _ in 0..n {
        all = fold(all.iter().flat_map(|&((h, w), p)| {
            one.iter()
                .map(move |&((h2, w2), q)| ((h || h2, w + w2), p * q))
        }));
    }
    all
}

impl Outcomes for PinningFire {
    type Out = FireOut;

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn sample<R: Roller>(&self, dice: &mut R) -> FireOut {
        let (mut hit, mut wounds) = (false, 0u16);
        for _ in 0..self.units {
            let (h, w) = self.unit_fire(dice);
            hit |= h;
            wounds += w;
        }
        let pinned = match self.target(hit) {
            Some(t) => !attribute_check(dice, self.will, t, self.reading),
            None => false,
        };
        (hit, wounds, pinned)
    }

    fn law(&self) -> Vec<(FireOut, f64)> {
        let fire = power(&self.unit_law(), self.units);
        let mut out = Vec::new();
        for ((hit, wounds), p) in fire {
            let fail = self
                .target(hit)
                .map_or(0.0, |t| 1.0 - p_attribute_check(self.will, t, self.reading));
            out.push(((hit, wounds, true), p * fail));
            out.push(((hit, wounds, false), p * (1.0 - fail)));
        }
        out.retain(|x| x.1 > 0.0);
        out
    }

    fn record(&self, o: &FireOut, sink: &mut impl MetricSink) {
        let &(hit, wounds, pinned) = o;
        let [p_hit, p_test, p_pinned, unhurt, p_wound, mean] = self.m;
        sink.record(p_hit, u64::from(hit));
        sink.record(p_test, u64::from(self.target(hit).is_some()));
        sink.record(p_pinned, u64::from(pinned));
        sink.record(unhurt, u64::from(pinned && wounds == 0));
        sink.record(p_wound, u64::from(wounds > 0));
        sink.record(mean, u64::from(wounds));
        sink.record(self.wounds[usize::from(wounds)], 1);
    }
}

/// Builds the pinning_fire model.
pub fn build(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = PinningFireParams::read(p)?;
    let shot = p.shot.shot(v)?;
    let reading = shot.reading;
    let ranged = RangedRule::new(shot);
    let r = ranged.resolved();
    let units = p.units as u32;
    let kept = i64::from(r.attacks) * i64::from(r.keep.max(0)) * p.units;
    if kept > i64::from(super::ranged::scenario::MAX_KEPT_IN_ALL) {
        return Err(ParamError::new(
            crate::param_name!(PinningFireParams.units),
            format!(
                "{units} units of {} attacks keeping up to {} dice each could keep {kept} dice, more than the {} one model allows: fewer units or a smaller weapon",
                r.attacks,
                r.keep,
                super::ranged::scenario::MAX_KEPT_IN_ALL
            ),
        ));
    }
    let leader = p.squad_leader;
    // "it is too far for the weapon to shoot": units out of reach do not
    // fire, so the target is not shot at (no test, no variant read)
    let shooters = if r.can_shoot { units as i32 } else { 0 };
    // read only where a hit test can be taken, as the pinning scenario does
    let counting = if leader || shooters == 0 {
        PinningHit::Rule
    } else {
        PinningHit::read(v)?
    };
    let mut list = MetricList::new();
    let [a, b, c, d, e, f, family] = &METRICS;
    let m = [a, b, c, d, e, f].map(|x| list.add(x));
    // at most S wounds an attack, doubled on a critical pass
    let per_unit = i32::from(r.attacks) * r.keep.max(0).min(r.cap) * 2;
    let wounds = list.family(family, 0..=per_unit * shooters);
    let rule = PinningFire {
        ranged,
        units,
        will: p.target_will as u32,
        target_hit: pinning_target(true, shooters, leader, counting),
        target_missed: pinning_target(false, shooters, leader, counting),
        reading,
        list,
        m,
        wounds,
    };
    let draws = UnitDraws::new(&rule, (per_unit * shooters) as usize);
    Ok(Box::new(PinningFireModel {
        model: OutcomeModel::new(rule),
        draws,
    }))
}

/// The fast sampler's tables: one unit's fire half a word, the test half a
/// word. A unit's (hit, wounds) is drawn from its law (the ranged rule's
/// exact attack law over the unit's attacks) by an alias table, packed as
/// `wounds << 1 | hit`; the units' wounds add up and their hits or
/// together. The test is failed when a 32-bit draw falls below the fail
/// chance of the branch's target (0 where no test is taken), that chance
/// worked out from one die of the rule's own check ([`p_check`]), not
/// from the exact evaluator's. A trial is counted in a dense table indexed
/// `(wounds << 1 | hit) << 1 | pinned`, four histograms side by side.
struct UnitDraws {
    /// One unit's law as alias columns: (32-bit threshold, own outcome,
    /// alias), outcomes packed `wounds << 1 | hit`.
    unit: Vec<(u64, u32, u32)>,
    units: u32,
    /// 32-bit thresholds of failing the test after no hit, and after a
    /// hit (indexed by the hit bit).
    fail: [u64; 2],
    /// Each dense index's outcome.
    ends: Vec<FireOut>,
}

impl UnitDraws {
    fn new(rule: &PinningFire, most_wounds: usize) -> Self {
        let law: Vec<(u32, f64)> = rule
            .unit_law()
            .into_iter()
            .map(|((hit, wounds), p)| (u32::from(wounds) << 1 | u32::from(hit), p))
            .collect();
        let fail = |target: Option<i32>| match target {
            Some(t) => threshold(1.0 - p_check(rule.will, t, rule.reading)),
            None => 0,
        };
        let ends = (0..(most_wounds + 1) * 4)
            .map(|i| (i >> 1 & 1 == 1, (i >> 2) as u16, i & 1 == 1))
            .collect();
        UnitDraws {
            unit: alias32(&law),
            units: rule.units,
            fail: [fail(rule.target_missed), fail(rule.target_hit)],
            ends,
        }
    }

    /// One unit's packed outcome from a 32-bit uniform `d`.
    #[inline(always)]
    fn unit(&self, d: u32) -> u32 {
        pick32(&self.unit, d)
    }

    /// One trial's dense index: the units' draws two a word, then the
    /// test on the next half word.
    #[inline(always)]
    fn trial(&self, roller: &mut BatchedRoller) -> usize {
        let (mut hit, mut wounds) = (0u32, 0u32);
        let mut add = |e: u32| {
            hit |= e & 1;
            wounds += e >> 1;
        };
        for _ in 0..self.units / 2 {
            let w = roller.next_word();
            add(self.unit(w as u32));
            add(self.unit((w >> 32) as u32));
        }
        let w = roller.next_word();
        let draw = if self.units % 2 == 1 {
            add(self.unit(w as u32));
            (w >> 32) as u32
        } else {
            w as u32
        };
        let pinned = u32::from(u64::from(draw) < self.fail[hit as usize]);
        ((wounds << 1 | hit) << 1 | pinned) as usize
    }

    /// Trials counted by their dense index.
    fn count(&self, roller: &mut BatchedRoller, trials: u64) -> Vec<u64> {
        let cells = self.ends.len();
        // four histograms side by side, trial after trial in turn
        let mut counts = vec![0u64; 4 * cells];
        let mut left = trials;
        while left >= 4 {
            for lane in 0..4 {
                let i = self.trial(roller);
                counts[4 * i + lane] += 1;
            }
            left -= 4;
        }
        for _ in 0..left {
            let i = self.trial(roller);
            counts[4 * i] += 1;
        }
        counts.chunks_exact(4).map(|c| c.iter().sum()).collect()
    }
}

/// The pinning_fire model: the chain's exact law and reference sampler
/// ([`OutcomeModel`]), and [`UnitDraws`] for the fast sampler.
struct PinningFireModel {
    model: OutcomeModel<PinningFire>,
    draws: UnitDraws,
}

impl Model for PinningFireModel {
    fn metrics(&self) -> &[MetricDef] {
        self.model.metrics()
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let counts = self.draws.count(roller, trials);
        record_counts(self.model.rule(), &self.draws.ends, &counts, trials, tally);
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

/// The fast sampler's name.
pub const UNIT_LAWS: &str = "unit laws (a unit's fire and the test each half a word from its law)";

#[cfg(test)]
mod tests {
    use crate::systems::Params;
    use crate::systems::krygothic::RULES;
    use crate::systems::testing::{exact, model};

    /// Three units with the seed's pistol (3K2S1; RC 3 at 4": three dice
    /// against 5, "no range modifier") at Body 3, armour 3, Speed 3, WILL
    /// 4. A unit hits unless all three dice miss: 1 - (4/6)^3 = 19/27, so
    /// no unit hits with (8/27)^3 = 512/19683. Hit: "roll against target 5.
    /// Increase the target number by 1 for every unit over the first" = 7,
    /// a 6 then 3+ on the re-roll: 1/6 x 4/6 = 1/9 a die, so four dice
    /// fail with (8/9)^4 = 4096/6561. Not hit, by three units ("2 or more
    /// different units in a row ... WILL roll against target 3", +1 for
    /// the third): 4+, failed with (1/2)^4 = 1/16.
    #[test]
    fn three_pistols_pin_by_hand() {
        let model = model(
            &RULES,
            "pinning_fire",
            &[
                ("weapon", "pistol"),
                ("firer_rc", "3"),
                ("range", "4"),
                ("target_body", "3"),
                ("target_armour", "3"),
                ("target_speed", "3"),
                ("target_will", "4"),
                ("units", "3"),
            ],
        );
        let get = |name: &str| exact(model.as_ref(), name);
        let missed = 512.0 / 19683.0;
        let pinned = (1.0 - missed) * 4096.0 / 6561.0 + missed / 16.0;
        assert!((get("p_hit") - (1.0 - missed)).abs() < 1e-12);
        assert!((get("p_test") - 1.0).abs() < 1e-12);
        assert!(
            (get("p_pinned") - pinned).abs() < 1e-12,
            "{}",
            get("p_pinned")
        );
        // each kept die wounds on 4+ (3 + 3 - 2), at most S = 1 a shot,
        // doubled on three sixes: one unit's mean wounds by hand is the
        // sum over its kept dice; three units, three times that
        let one_unit: f64 = {
            // P(k dice of 3 pass on 5+), and three sixes among them
            let mut mean = 0.0;
            for k in 0..=3u32 {
                let ways = [1.0, 3.0, 3.0, 1.0][k as usize];
                let p_k = ways * (1.0f64 / 3.0).powi(k as i32) * (2.0f64 / 3.0).powi(3 - k as i32);
                // at least one of the k wound dice passes on 4+
                let wound = 1.0 - 0.5f64.powi(k as i32);
                // three sixes: all three dice a 6, doubling the one wound
                mean += p_k * wound;
            }
            mean + (1.0 / 216.0) * (1.0 - 0.125)
        };
        assert!(
            (get("mean_wounds") - 3.0 * one_unit).abs() < 1e-12,
            "{}",
            get("mean_wounds")
        );
    }

    /// Suppressive fire, two units: "When using suppressive fire, the
    /// attacking unit can increase their RC attribute by 2 points ... do
    /// NOT roll to wound. The only time you are allowed to roll to wound is
    /// if you get a critical hit ... If the unit is hit, follow the pinning
    /// rules as if they have been struck by normal fire." Average Joes (RC
    /// 2, so 4 dice; Body 2, Speed 3, WILL 3) with a 6K2S2 autocannon at
    /// 10" (no range bands): each die hits on 5+, 1/3, so a unit misses
    /// with (2/3)^4 = 16/81 and both with q = (16/81)^2. Hit by either:
    /// "two units firing give a target number of 6": three dice fail a 6
    /// with (5/6)^3 = 125/216; missed by both ("2 or more different
    /// units"): target 3, failed with (1/3)^3 = 1/27. Standard fire rolls
    /// 2 dice: a unit misses with 4/9, both with 16/81, so suppressive fire
    /// pins more ("gain a greater chance to pin the unit"). Wounds only on
    /// a critical pass (three or four sixes among the 4 dice: (4 x 5 +
    /// 1)/6^4 = 21/1296 a unit), and then every kept die wounds
    /// (target 2 + 0 - 2 = 0: any die), capped at S2 and doubled: 4. The
    /// target pinned unhurt: no critical pass by either unit, then as
    /// above.
    #[test]
    fn suppressive_fire_pins_more_and_wounds_only_on_a_critical() {
        let point = |mode: &'static str| {
            model(
                &RULES,
                "pinning_fire",
                &[
                    ("weapon", "autocannon"),
                    ("weapon_strength", "2"),
                    ("weapon_suppressive", "true"),
                    ("fire_mode", mode),
                    ("firer", "average_joe"),
                    ("target", "average_joe"),
                    ("range", "10"),
                    ("units", "2"),
                ],
            )
        };
        let (sup, std) = (point("suppressive"), point("standard"));
        let q = (16.0f64 / 81.0).powi(2);
        let pinned = (1.0 - q) * 125.0 / 216.0 + q / 27.0;
        let q_std = 16.0 / 81.0;
        let pinned_std = (1.0 - q_std) * 125.0 / 216.0 + q_std / 27.0;
        let crit: f64 = 21.0 / 1296.0;
        let unhurt = ((1.0 - crit).powi(2) - q) * 125.0 / 216.0 + q / 27.0;
        let want = [
            ("p_hit", 1.0 - q),
            ("p_test", 1.0),
            ("p_pinned", pinned),
            ("p_pinned_unhurt", unhurt),
            ("p_wound", 1.0 - (1.0 - crit).powi(2)),
            ("mean_wounds", 2.0 * 4.0 * crit),
            ("wounds=4", 2.0 * crit * (1.0 - crit)),
            ("wounds=8", crit * crit),
        ];
        for (name, v) in want {
            let got = exact(sup.as_ref(), name);
            assert!((got - v).abs() < 1e-12, "{name}: {got} against {v}");
        }
        let got = exact(std.as_ref(), "p_pinned");
        assert!(
            (got - pinned_std).abs() < 1e-12,
            "{got} against {pinned_std}"
        );
        assert!(pinned > pinned_std + 0.06, "{pinned} against {pinned_std}");
    }

    /// Pinning Example #1, "shot at by two elite units ... The unit is
    /// struck ... A WILL roll of 4 dice ... is made at target 5", is the
    /// `pinning_hit = "example"` variant; the rule, "two units firing give
    /// a target number of 6 instead of 5", the default. WILL 4 after the
    /// suppressive autocannons above (both miss with q = (16/81)^2): hit,
    /// four dice fail a 6 with (5/6)^4 = 625/1296 (the rule) or a 5 with
    /// (2/3)^4 = 16/81 (the example); missed, a 3 with (1/3)^4 = 1/81.
    #[test]
    fn two_units_hit_test_at_six_by_the_rule_at_five_by_example_one() {
        let pairs = [
            ("weapon", "autocannon"),
            ("weapon_strength", "2"),
            ("weapon_suppressive", "true"),
            ("fire_mode", "suppressive"),
            ("firer", "average_joe"),
            ("target_body", "2"),
            ("target_speed", "3"),
            ("target_will", "4"),
            ("range", "10"),
            ("units", "2"),
        ];
        let q = (16.0f64 / 81.0).powi(2);
        for (reading, fail_hit) in [("rule", 625.0 / 1296.0), ("example", 16.0 / 81.0)] {
            let m = RULES
                .build(
                    "pinning_fire",
                    &Params::from_pairs(&pairs),
                    &Params::from_pairs(&[("pinning_hit", reading)]),
                )
                .unwrap();
            let want = (1.0 - q) * fail_hit + q / 81.0;
            let got = exact(m.as_ref(), "p_pinned");
            assert!(
                (got - want).abs() < 1e-12,
                "{reading}: {got} against {want}"
            );
        }
    }

    /// Pinning Example #2: "shot at by 4 units ... a score of only 2.
    /// Although the enemy misses the shot ... A WILL roll is made at target
    /// 3+2 ... so the target number is 5": two dice fail a 5 with (2/3)^2
    /// = 4/9. Firers of RC 0 roll no dice, so never hit. One unit missing:
    /// "If a unit is shot by 2 or more different units in a row ... but is
    /// not hit": no test.
    #[test]
    fn example_two_four_units_missing_test_at_five() {
        let pairs = |units: &'static str| {
            [
                ("weapon", "pistol"),
                ("firer_rc", "0"),
                ("range", "4"),
                ("target_body", "2"),
                ("target_speed", "3"),
                ("target_will", "2"),
                ("units", units),
            ]
        };
        let four = model(&RULES, "pinning_fire", &pairs("4"));
        assert_eq!(exact(four.as_ref(), "p_hit"), 0.0);
        assert!((exact(four.as_ref(), "p_test") - 1.0).abs() < 1e-12);
        let got = exact(four.as_ref(), "p_pinned");
        assert!((got - 4.0 / 9.0).abs() < 1e-12, "{got}");
        let one = model(&RULES, "pinning_fire", &pairs("1"));
        for name in ["p_test", "p_pinned"] {
            assert_eq!(exact(one.as_ref(), name), 0.0, "{name}");
        }
    }

    /// "If the distance is so great that the penalties drop the weapons
    /// statistics to 0 or below, it is too far for the weapon to shoot":
    /// pistols (LR 6) at 30" do not fire, so the target is not "shot by 2
    /// or more different units": no test, not pinned.
    #[test]
    fn units_out_of_reach_do_not_shoot_so_no_test() {
        let m = model(
            &RULES,
            "pinning_fire",
            &[
                ("weapon", "pistol"),
                ("firer_rc", "2"),
                ("range", "30"),
                ("target", "average_joe"),
                ("units", "2"),
            ],
        );
        for name in ["p_hit", "p_test", "p_pinned", "p_wound"] {
            assert_eq!(exact(m.as_ref(), name), 0.0, "{name}");
        }
    }

    /// The sentences quoted above are the seed's.
    #[test]
    fn the_seed_says_so() {
        use crate::systems::seed_text;
        if !seed_text::available(crate::systems::krygothic::SEED) {
            return;
        }
        let text = seed_text::seed(crate::systems::krygothic::SEED);
        for quote in [
            "the attacking unit can increase their RC attribute by 2 points",
            "The only time you are allowed to roll to wound is if you get a critical hit.",
            "If the unit is hit, follow the pinning rules as if they have been struck by normal fire.",
            "Units using suppressive fire gain a greater chance to pin the unit",
            "The more units they are shot at by, the higher chance they have of being pinned.",
            "(NOTE: The unit only has to be hit, not wounded)",
            "Increase the target number by 1 for every unit over the first that is also firing",
            "If a unit is shot by 2 or more different units in a row",
            "A WILL roll is made at target 3+2",
            "it is too far for the weapon to shoot",
        ] {
            assert!(text.contains(quote), "seed has '{quote}'");
        }
    }

    /// "Squad leaders can never be pinned": no test, whatever the fire.
    #[test]
    fn a_squad_leader_takes_no_test() {
        let model = model(
            &RULES,
            "pinning_fire",
            &[
                ("weapon", "pistol"),
                ("firer_rc", "4"),
                ("range", "5"),
                ("target", "average_joe"),
                ("units", "4"),
                ("squad_leader", "true"),
            ],
        );
        for name in ["p_test", "p_pinned"] {
            assert_eq!(exact(model.as_ref(), name), 0.0, "{name}");
        }
    }
}
