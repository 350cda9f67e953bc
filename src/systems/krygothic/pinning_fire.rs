//! The `pinning_fire` scenario: several units fire at one target, and the
//! pinning test their fire brings, as one chain. Chapter 6: "When a unit
//! is shot at, they must take a test to avoid being pinned. The more units
//! they are shot at by, the higher chance they have of being pinned": one
//! test after the units have fired, against 5 + 1 per unit over the first
//! when any of them hit (the unit "only has to be hit, not wounded"), or,
//! when none hit, against 3 + 1 per unit beyond the second from two units
//! on ([`pinning_target`]). Each unit fires as the `ranged` scenario's
//! shot (its fire mode, so suppressive fire's +2 RC raises the chance to
//! hit and so to pin, wounding only on a critical pass).
//!
//! Exact: one unit's law of (hit, wounds) from the ranged rule's attack
//! law, convolved over the units, then the test's exact pass chance on
//! each branch. Monte Carlo: every unit's attacks on real dice, then the
//! WILL dice.

use super::dice::{Reading, attribute_check, p_attribute_check};
use super::psych::{PinningHit, pinning_target};
use super::ranged::scenario::RangedParams;
use super::ranged::{RangedRule, Resolved};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::outcome_model::{OutcomeModel, Outcomes};
use crate::systems::{
    MetricDecl, MetricList, Model, ParamError, ParamGroup, Params, Refusal, Scenario, Variant,
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
    r: Resolved,
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
        if !self.r.can_shoot {
            return (false, 0);
        }
        let (mut hit, mut wounds) = (false, 0u16);
        for _ in 0..self.r.attacks {
            let o = self.ranged.attack(dice);
            hit |= o.hits > 0;
            wounds += u16::from(o.wounds);
        }
        (hit, wounds)
    }

    /// One unit's law of (hit, wounds).
    fn unit_law(&self) -> Vec<((bool, u16), f64)> {
        if !self.r.can_shoot {
            return vec![((false, 0), 1.0)];
        }
        let one: Vec<((bool, u16), f64)> = fold(
            self.ranged
                .attack_law()
                .into_iter()
                .map(|(o, p)| ((o.hits > 0, u16::from(o.wounds)), p)),
        );
        power(&one, self.r.attacks.into())
    }

    fn target(&self, hit: bool) -> Option<i32> {
        if hit {
            self.target_hit
        } else {
            self.target_missed
        }
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
    // read only where a hit test can be taken, as the pinning scenario does
    let counting = if leader {
        PinningHit::Rule
    } else {
        PinningHit::read(v)?
    };
    let shooters = units as i32;
    let mut list = MetricList::new();
    let [a, b, c, d, e, f, family] = &METRICS;
    let m = [a, b, c, d, e, f].map(|x| list.add(x));
    let per_unit = i32::from(r.attacks) * r.keep.max(0) * 2;
    let wounds = list.family(family, 0..=per_unit * shooters);
    Ok(Box::new(OutcomeModel::new(PinningFire {
        ranged,
        r,
        units,
        will: p.target_will as u32,
        target_hit: pinning_target(true, shooters, leader, counting),
        target_missed: pinning_target(false, shooters, leader, counting),
        reading,
        list,
        m,
        wounds,
    })))
}

#[cfg(test)]
mod tests {
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
