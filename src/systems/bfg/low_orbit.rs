//! The `low_orbit` scenario: a ship in low orbit firing its lances or its
//! nova cannon, each needing a 4+ to fire. Its parameters, the rule
//! ([`LowOrbitFire`], a [`Mechanic`] of one step: the 4+ rolls) and its
//! builder, in one module named after it.
//!
//! FIGHTING IN LOW ORBIT: "To represent interference from the planet's
//! gravity well and the outermost edges of its atmosphere, all firepower
//! shooting in low orbit suffers one column shift to the right, lances and
//! nova cannons require a 4+ roll to fire and torpedoes may not be fired by
//! ships at all."
//!
//! The column shift is on the Gunnery table, which the seed does not give,
//! and what a lance or a nova cannon does once it fires is the basic
//! rules': here, how many fire. Weapon batteries and torpedoes are refused
//! with the reason.

use super::mechanics::Pool;
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::{
    MetricDecl, MetricList, Model, ParamError, ParamGroup, Params, Refusal, Scenario, Variant,
};

/// The `low_orbit` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const LOW_ORBIT_SCENARIO: Scenario = Scenario {
    name: "low_orbit",
    about: "lances or a nova cannon fired in low orbit: the 4+ each needs to fire",
    seed_section: "FIGHTING IN LOW ORBIT",
    params: OrbitParams::decls,
    metrics: || METRICS.to_vec(),
    build: build_low_orbit,
    variants: &["orbit_fire_roll"],
    test_points: &[
        &[("weapon", "lances"), ("strength", "3")],
        &[("weapon", "nova_cannon")],
        &[("weapon", "lances"), ("strength", "6")],
    ],
    refusals: &[
        Refusal {
            what: "torpedoes in low orbit",
            point: 0,
            set: &[("weapon", "torpedoes")],
            unset: &[],
            field: "weapon",
            words: &["torpedoes may not be fired"],
        },
        Refusal {
            what: "weapon batteries in low orbit",
            point: 0,
            set: &[("weapon", "batteries")],
            unset: &[],
            field: "weapon",
            words: &["column shift", "Gunnery table"],
        },
        Refusal {
            what: "a nova cannon of strength 2",
            point: 1,
            set: &[("strength", "2")],
            unset: &[],
            field: "strength",
            words: &["nova cannon", "one shot"],
        },
        Refusal {
            what: "lances of strength 0",
            point: 0,
            set: &[("strength", "0")],
            unset: &[],
            field: "strength",
            words: &["from 1 to 12"],
        },
    ],
    naive: super::naive::LOW_ORBIT,
};

const ORBIT: &str = "FIGHTING IN LOW ORBIT";

crate::param_struct! {
    /// Parameters of the low orbit scenario.
    struct OrbitParams {
        weapon: String = choice(&["lances", "nova_cannon", "batteries", "torpedoes"])
            .required()
            .about("the weapon fired in low orbit (lances and nova cannons need a 4+ to fire; torpedoes may not be fired)")
            .seed(ORBIT),
        strength: i64 = int(1, 12)
            .default("1")
            .about("the lances' strength: lances fired together (a nova cannon is one shot)")
            .seed(ORBIT),
    }
}

crate::variant_enum! {
    /// How many 4+ rolls lances of strength 2 or more make (the variant
    /// `orbit_fire_roll`).
    pub enum OrbitFireRoll = "orbit_fire_roll" {
        /// Each lance rolls its own 4+: "lances ... require a 4+ roll to
        /// fire".
        EachLance = "each_lance",
        /// One 4+ for the lances fired together: all fire or none.
        EachWeapon = "each_weapon",
    }
    about: "Lances of strength 2 or more in low orbit: each lance rolls its own 4+ ('each_lance', \"lances and nova cannons require a 4+ roll to fire\"), or one 4+ for the weapon, all its lances firing or none ('each_weapon')",
}

/// The low orbit scenario's metrics.
pub const METRICS: [MetricDecl; 4] = [
    MetricDecl::probability(
        "p_fires",
        "P(at least one shot fires)",
        "P(at least one lance, or the nova cannon, rolls its 4+ to fire)",
    ),
    MetricDecl::probability(
        "p_all_fire",
        "P(every shot fires)",
        "P(every lance, or the nova cannon, fires)",
    ),
    MetricDecl::mean(
        "mean_fired",
        "mean shots fired",
        "expected lances (or nova cannon shots) that fire",
    ),
    MetricDecl::probability(
        "fired={k}",
        "P({k} shots fire)",
        "P(exactly k lances fire), k = 0 to the strength",
    ),
];

/// A weapon fired in low orbit.
#[derive(Clone, Debug)]
pub struct LowOrbitFire {
    shots: u32,
    roll: OrbitFireRoll,
    /// The 4+s among the shots' dice (one die for `each_weapon`).
    fours: Pool,
    list: MetricList,
    m: [Metric; 3],
    fired: Vec<Metric>,
}

impl Mechanic for LowOrbitFire {
    /// Shots fired.
    type State = u8;

    fn start(&self) -> u8 {
        0
    }

    /// The 4+ rolls.
    fn steps(&self) -> usize {
        1
    }

    fn step<R: Roller>(&self, _i: usize, dice: &mut R, s: &mut u8) {
        let fours = self.fours.roll(dice);
        *s = match self.roll {
            OrbitFireRoll::EachLance => fours as u8,
            OrbitFireRoll::EachWeapon => (fours * self.shots) as u8,
        };
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &u8, sink: &mut impl MetricSink) {
        let [fires, all, mean] = self.m;
        sink.record(fires, u64::from(*s > 0));
        sink.record(all, u64::from(u32::from(*s) == self.shots));
        sink.record(mean, u64::from(*s));
        sink.record(self.fired[usize::from(*s)], 1);
    }
}

fn build_low_orbit(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = OrbitParams::read(p)?;
    let weapon = crate::param_name!(OrbitParams.weapon);
    match p.weapon.as_str() {
        "torpedoes" => {
            return Err(ParamError::new(
                weapon,
                "in low orbit \"torpedoes may not be fired by ships at all\"",
            ));
        }
        "batteries" => {
            return Err(ParamError::new(
                weapon,
                "weapon batteries in low orbit take \"one column shift to the right\" on the Gunnery table, which the seed does not give: lances or nova_cannon",
            ));
        }
        "nova_cannon" if p.strength != 1 => {
            return Err(ParamError::new(
                crate::param_name!(OrbitParams.strength),
                "a nova cannon fires one shot: leave strength at 1",
            ));
        }
        _ => {}
    }
    let shots = p.strength as u32;
    let roll = OrbitFireRoll::read(v)?;
    let dice = match roll {
        OrbitFireRoll::EachLance => shots,
        OrbitFireRoll::EachWeapon => 1,
    };
    let mut list = MetricList::new();
    let m = [&METRICS[0], &METRICS[1], &METRICS[2]].map(|d| list.add(d));
    let fired = list.family(&METRICS[3], 0..=shots);
    let rule = LowOrbitFire {
        shots,
        roll,
        fours: Pool::new(dice, 4),
        list,
        m,
        fired,
    };
    Ok(Box::new(StepModel::new(rule)))
}

#[cfg(test)]
mod tests {
    use crate::systems::{Params, seed_text, testing};

    fn exact(pairs: &[(&str, &str)], variants: &[(&str, &str)], metric: &str) -> f64 {
        let m = super::super::RULES
            .build(
                "low_orbit",
                &Params::from_pairs(pairs),
                &Params::from_pairs(variants),
            )
            .unwrap();
        testing::exact(m.as_ref(), metric)
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-12, "{a} against {b}");
    }

    /// "lances and nova cannons require a 4+ roll to fire": a nova cannon
    /// fires 1/2; two lances each rolling: none 1/4, both 1/4; one roll
    /// for both: none 1/2, both 1/2. Both fire one lance on average.
    #[test]
    fn four_plus_by_hand() {
        if seed_text::available(seed_text::BFG) {
            let text = seed_text::seed(seed_text::BFG);
            assert!(text.contains("lances and nova cannons require a 4+ roll to fire and torpedoes may not be fired by ships at all"));
        }
        close(exact(&[("weapon", "nova_cannon")], &[], "p_fires"), 0.5);
        let two = [("weapon", "lances"), ("strength", "2")];
        close(exact(&two, &[], "fired=0"), 0.25);
        close(exact(&two, &[], "fired=2"), 0.25);
        close(exact(&two, &[], "mean_fired"), 1.0);
        let one = [("orbit_fire_roll", "each_weapon")];
        close(exact(&two, &one, "fired=0"), 0.5);
        close(exact(&two, &one, "fired=1"), 0.0);
        close(exact(&two, &one, "mean_fired"), 1.0);
    }
}
