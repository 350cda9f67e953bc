//! The `gas_cloud` scenario: Eldar ships (a ship, or the ships of a
//! squadron) in base contact with a gas/dust cloud, their Leadership check
//! to ignore it, and how many are left under the cloud's Blast marker. Its
//! parameters, the rule ([`GasCloud`], a [`Mechanic`]: one check per ship
//! in contact, or one for the squadron) and its builder, in one module
//! named after it.
//!
//! GAS AND DUST CLOUDS, Effects: "To ships in base contact, gas and dust
//! clouds have the same effect as a single Blast marker in all respects
//! (ie, on firing, movement, shields, Leadership and ordnance). Eldar and
//! their kin can make a leadership check to ignore all effects of gas
//! clouds, and their escorts may re-roll this result for free. If passed,
//! it will take no damage nor suffer any effects of being in contact with
//! it."
//!
//! What a Blast marker in contact does is counted where the seed gives it a
//! number: an enemy boarding the ship adds "+1" (Boarding Modifiers, "Enemy
//! ship has Blast markers in contact"), a ship disengaging adds "+1" to its
//! Leadership test for "Each Blast marker within 5cm" (DISENGAGING FROM
//! COMBAT, `disengage`'s own parameter), and a squadron's Command checks
//! take the under-fire modifier "even if only some of the ships in a
//! squadron have Blast markers in base contact" (SQUADRON COMMAND CHECKS;
//! the modifier's size is not in the seed). Firing, movement and shields
//! under a Blast marker are the basic rules', not the seed's: not here.

use super::tables::leadership_test;
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::{
    MetricDecl, MetricList, Model, ParamError, ParamGroup, Params, Refusal, Scenario, Variant,
};

/// The `gas_cloud` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const GAS_CLOUD_SCENARIO: Scenario = Scenario {
    name: "gas_cloud",
    about: "Eldar ships in contact with a gas/dust cloud: the Leadership check to ignore it (an escort re-rolls) and the ships left under its Blast marker",
    seed_section: "GAS AND DUST CLOUDS",
    params: GasParams::decls,
    metrics: || METRICS.to_vec(),
    build: build_gas_cloud,
    variants: &["gas_check"],
    test_points: &[
        &[("leadership", "8"), ("ships", "3"), ("escort", "true")],
        &[("leadership", "7")],
        &[("leadership", "9"), ("ships", "6")],
    ],
    refusals: &[
        Refusal {
            what: "no Leadership",
            point: 0,
            set: &[],
            unset: &["leadership"],
            field: "leadership",
            words: &["missing", "set leadership"],
        },
        Refusal {
            what: "a squadron of seven",
            point: 0,
            set: &[("ships", "7")],
            unset: &[],
            field: "ships",
            words: &["from 1 to 6"],
        },
        Refusal {
            what: "escort as a word",
            point: 0,
            set: &[("escort", "yes")],
            unset: &[],
            field: "escort",
            words: &["true or false"],
        },
    ],
    naive: super::naive::GAS_CLOUD,
};

const CLOUDS: &str = "GAS AND DUST CLOUDS";

crate::param_struct! {
    /// Parameters of the gas cloud scenario.
    struct GasParams {
        leadership: i64 = int(1, 12)
            .required()
            .about("the Eldar ship's (squadron's) Leadership: a passed 2D6 check ignores the cloud")
            .seed(CLOUDS),
        ships: i64 = int(1, 6)
            .default("1")
            .about("ships of the squadron in base contact with the cloud (an escort squadron has up to six)")
            .seed(CLOUDS),
        escort: bool = flag()
            .about("the ships are escorts: they re-roll a failed check for free")
            .seed(CLOUDS),
    }
}

crate::variant_enum! {
    /// Who takes the Eldar check when a squadron touches a cloud (the
    /// variant `gas_check`).
    pub enum GasCheck = "gas_check" {
        /// Each ship in contact checks for itself: "To ships in base
        /// contact ... If passed, it will take no damage nor suffer any
        /// effects of being in contact with it."
        EachShip = "each_ship",
        /// One check for the squadron, which all its ships in contact
        /// share, as "A ship or escort squadron that fails the Leadership
        /// test" of the asteroid field.
        Squadron = "squadron",
    }
    about: "Eldar ships of a squadron in contact with a gas cloud: each ship checks for itself ('each_ship', \"To ships in base contact ... If passed, it will take no damage nor suffer any effects of being in contact with it\"), or the squadron takes one check for all ('squadron', as the asteroid field's \"A ship or escort squadron that fails the Leadership test\")",
}

/// The gas cloud scenario's metrics.
pub const METRICS: [MetricDecl; 5] = [
    MetricDecl::probability(
        "p_ignores",
        "P(a ship ignores the cloud)",
        "P(one ship in contact passes the Eldar check, with an escort's re-roll)",
    ),
    MetricDecl::probability(
        "p_all_ignore",
        "P(every ship ignores the cloud)",
        "P(no ship in contact is left under the cloud's Blast marker)",
    ),
    MetricDecl::probability(
        "p_under_fire",
        "P(a ship keeps the cloud's Blast marker)",
        "P(at least one ship in contact fails: the squadron's Command checks take the under-fire modifier; an enemy boarding that ship adds +1, and so does its disengage test)",
    ),
    MetricDecl::mean(
        "mean_under_cloud",
        "mean ships under the cloud",
        "expected ships in contact that fail the check, each as under a single Blast marker",
    ),
    MetricDecl::probability(
        "under_cloud={k}",
        "P({k} ships under the cloud)",
        "P(exactly k ships in contact fail the check)",
    ),
];

/// Eldar ships in contact with a gas cloud.
#[derive(Clone, Debug)]
pub struct GasCloud {
    leadership: i32,
    ships: u32,
    escort: bool,
    check: GasCheck,
    /// The check's law: passed or not.
    law: Vec<(bool, f64)>,
    list: MetricList,
    m: [Metric; 4],
    under: Vec<Metric>,
}

/// The checks so far.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GasState {
    /// The first ship's check passed (the ship `p_ignores` follows).
    first_passed: bool,
    /// Ships in contact that failed.
    under: u8,
}

impl Mechanic for GasCloud {
    type State = GasState;

    fn start(&self) -> GasState {
        GasState {
            first_passed: false,
            under: 0,
        }
    }

    /// One check per ship, or one for the squadron.
    fn steps(&self) -> usize {
        match self.check {
            GasCheck::EachShip => self.ships as usize,
            GasCheck::Squadron => 1,
        }
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut GasState) {
        let (ld, escort) = (self.leadership, self.escort);
        let passed = dice.known(
            || &self.law,
            |r| leadership_test(r, 2, ld) || (escort && leadership_test(r, 2, ld)),
        );
        if i == 0 {
            s.first_passed = passed;
        }
        if !passed {
            s.under += match self.check {
                GasCheck::EachShip => 1,
                GasCheck::Squadron => self.ships as u8,
            };
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &GasState, sink: &mut impl MetricSink) {
        let [ignores, all, fire, mean] = self.m;
        sink.record(ignores, u64::from(s.first_passed));
        sink.record(all, u64::from(s.under == 0));
        sink.record(fire, u64::from(s.under > 0));
        sink.record(mean, u64::from(s.under));
        sink.record(self.under[usize::from(s.under)], 1);
    }
}

fn build_gas_cloud(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = GasParams::read(p)?;
    let ships = p.ships as u32;
    let leadership = p.leadership as i32;
    let mut list = MetricList::new();
    let m = [&METRICS[0], &METRICS[1], &METRICS[2], &METRICS[3]].map(|d| list.add(d));
    let under = list.family(&METRICS[4], 0..=ships);
    let rule = GasCloud {
        leadership,
        ships,
        escort: p.escort,
        check: GasCheck::read(v)?,
        law: super::tables::eldar_check_law(leadership, p.escort),
        list,
        m,
        under,
    };
    Ok(Box::new(StepModel::new(rule)))
}

#[cfg(test)]
mod tests {
    use crate::systems::{Params, seed_text, testing};

    fn exact(pairs: &[(&str, &str)], variants: &[(&str, &str)], metric: &str) -> f64 {
        let m = super::super::RULES
            .build(
                "gas_cloud",
                &Params::from_pairs(pairs),
                &Params::from_pairs(variants),
            )
            .unwrap();
        testing::exact(m.as_ref(), metric)
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-12, "{a} against {b}");
    }

    /// "Eldar and their kin can make a leadership check to ignore all
    /// effects of gas clouds, and their escorts may re-roll this result for
    /// free": Leadership 8 passes 2D6 on 26/36 = 13/18; an escort fails
    /// twice (5/18)^2 = 25/324. Three escorts each checking: 3 x 25/324 =
    /// 25/108 expected under the cloud; one check for the squadron: all
    /// three or none, also 25/108 on average, but P(some ship under) is
    /// 25/324 against 1 - (299/324)^3.
    #[test]
    fn eldar_check_by_hand() {
        if seed_text::available(seed_text::BFG) {
            let text = seed_text::seed(seed_text::BFG);
            assert!(text.contains("Eldar and their kin can make a leadership check to ignore all effects of gas clouds, and their escorts may re-roll this result for free."));
        }
        close(exact(&[("leadership", "8")], &[], "p_ignores"), 13.0 / 18.0);
        let three = [("leadership", "8"), ("ships", "3"), ("escort", "true")];
        close(exact(&three, &[], "p_ignores"), 299.0 / 324.0);
        close(exact(&three, &[], "mean_under_cloud"), 25.0 / 108.0);
        let all = (299.0f64 / 324.0).powi(3);
        close(exact(&three, &[], "p_all_ignore"), all);
        close(exact(&three, &[], "p_under_fire"), 1.0 - all);
        let squadron = [("gas_check", "squadron")];
        close(exact(&three, &squadron, "mean_under_cloud"), 25.0 / 108.0);
        close(exact(&three, &squadron, "p_under_fire"), 25.0 / 324.0);
        close(exact(&three, &squadron, "under_cloud=3"), 25.0 / 324.0);
        close(exact(&three, &squadron, "under_cloud=1"), 0.0);
    }
}
