//! One vehicle ramming another: swerve, impact, damage both ways. Its scenario, parameters and builder.

use super::super::damage::{VehicleParams, VehicleRole};
use super::super::rams::{Impact, LargeRake, Mixed, Ram, head_on_equilibrium};
use super::common::*;
use crate::param_name;
use crate::systems::Variant;
use crate::systems::{Model, Opt, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `ram` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const RAM_SCENARIO: Scenario = Scenario {
    name: "ram",
    about: "rakes, sideswipes, shunts, T-bones and head-on rams (a secret choice, or its equilibrium), collisions and crashes, small and large",
    seed_section: "Vehicles, Swerving; Krunch; Rakes and Sideswipes; Rams; Head-On Rams; Collisions; Crashes",
    params: RamParams::decls,
    metrics: || super::super::rams::RAM_METRICS.to_vec(),
    build: build_ram,
    variants: &["large_rake"],
    test_points: &[
        &[
            ("impact", "t_bone"),
            ("rammer", "ork_trukk"),
            ("target", "ork_trukk"),
            ("target_leadership", "7"),
        ],
        &[
            ("impact", "head_on"),
            ("rammer", "ork_trukk"),
            ("target", "ork_trukk"),
            ("target_size", "small"),
            ("rammer_strategy", "equilibrium"),
            ("target_strategy", "1, 2, 1"),
        ],
        &[
            ("impact", "collision_front"),
            ("rammer", "ork_trukk"),
            ("target", "ork_trukk"),
            ("uncertain", "true"),
            ("target_vehicle_save", "5"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "an unknown impact",
            point: 0,
            set: &[("impact", "tbone")],
            unset: &[],
            field: "impact",
            words: &["did you mean 't_bone'"],
        },
        Refusal {
            what: "a Swerve test in a head-on ram",
            point: 0,
            set: &[("impact", "head_on")],
            unset: &[],
            field: "target_leadership",
            words: &["head-on"],
        },
        Refusal {
            what: "a strategy of two weights",
            point: 0,
            set: &[("impact", "head_on"), ("rammer_strategy", "1, 2")],
            unset: &["target_leadership"],
            field: "rammer_strategy",
            words: &["three whole weights"],
        },
    ],
    naive: crate::systems::gce::naive::RAM,
};

/// The vehicle ramming (or crashing).
#[derive(Clone, Debug)]
pub struct Rammer;
impl VehicleRole for Rammer {
    const WHO: &'static str = "the rammer (the vehicle moving, or crashing)";
    const THRUST: bool = false;
}

/// The vehicle rammed.
#[derive(Clone, Debug)]
pub struct Rammed;
impl VehicleRole for Rammed {
    const WHO: &'static str = "the target (not used by crashes)";
    const THRUST: bool = false;
}

crate::param_struct! {
    /// Parameters of the ram scenario.
    pub struct RamParams {
        impact: String = choice(Impact::NAMES)
            .required()
            .about("rake, sideswipe, shunt (rear), t_bone (side), head_on; collision_front/side/other; crash_front/side (into terrain)")
            .seed(RAMMING),
        rammer: VehicleParams<Rammer> = prefixed("rammer_"),
        target: VehicleParams<Rammed> = prefixed("target_"),
        target_leadership: Opt<i64> = int(2, 12)
            .about("the target driver's Leadership: it tests to Swerve (absent: it cannot, or does not, Swerve)")
            .seed("Vehicles, Swerving"),
        uncertain: bool = flag()
            .about("roll a D6 first: 1-3 they scrape paint, 4+ the collision or crash happens")
            .seed("Collisions, Note; Crashes, Clipping"),
        rammer_strategy: String = text("uniform")
            .default("uniform")
            .about("head-on: the rammer's choice, 'uniform', 'equilibrium', or weights 'left, straight, right' such as '1, 2, 1'")
            .seed("Head-On Rams"),
        target_strategy: String = text("uniform")
            .default("uniform")
            .about("head-on: the target's choice, as rammer_strategy")
            .seed("Head-On Rams"),
    }
}

/// A strategy as a spec writes it.
fn strategy(text: &str, field: &str, equilibrium: [f64; 3]) -> Result<Mixed, ParamError> {
    match text.trim() {
        "uniform" => Ok(Mixed::UNIFORM),
        "equilibrium" => Ok(Mixed::from_probabilities(equilibrium)),
        t => {
            let w: Vec<u32> = t
                .split(',')
                .map(|x| x.trim().parse::<u32>())
                .collect::<Result<_, _>>()
                .map_err(|_| {
                    ParamError::new(
                        field,
                        format!("'{t}' is not 'uniform', 'equilibrium' or three whole weights 'left, straight, right'"),
                    )
                })?;
            if w.len() != 3 || w.iter().sum::<u32>() == 0 || w.iter().any(|&x| x > 1000) {
                return Err(ParamError::new(
                    field,
                    format!(
                        "'{t}': give three whole weights 0-1000 for left, straight, right, not all 0"
                    ),
                ));
            }
            Ok(Mixed([w[0], w[1], w[2]]))
        }
    }
}

/// Builds the ram model.
pub fn build_ram(p: &Params, variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = RamParams::read(p)?;
    let impact = Impact::named(&p.impact).unwrap_or(Impact::Rake);
    let rammer = p.rammer.vehicle()?;
    let target = p.target.vehicle()?;
    let uncertain = p.uncertain;
    if uncertain && !impact.may_be_uncertain() {
        return Err(ParamError::new(
            param_name!(RamParams.uncertain),
            "only collisions and crashes may be uncertain: a ram is declared",
        ));
    }
    let swerve_leadership = p.target_leadership.value.map(|l| l as u8);
    if swerve_leadership.is_some() && !impact.swerve_test() {
        return Err(ParamError::new(
            p.target_leadership.name(),
            "no Swerve test here: head-on rams are a secret choice, and crashes cannot be swerved",
        ));
    }
    let rake = LargeRake::read(variants)?;
    let mut ram = Ram {
        impact,
        rammer,
        target,
        swerve_leadership,
        uncertain,
        strategies: (Mixed::UNIFORM, Mixed::UNIFORM),
        rake,
    };
    let (x, y, _) = head_on_equilibrium(ram.head_on_payoffs());
    let strategies = [
        (param_name!(RamParams.rammer_strategy), &p.rammer_strategy),
        (param_name!(RamParams.target_strategy), &p.target_strategy),
    ];
    if impact != Impact::HeadOn {
        // left out, a strategy is its default, "uniform"
        for (f, v) in strategies {
            if v != "uniform" {
                return Err(ParamError::new(f, "strategies are for head-on rams only"));
            }
        }
    }
    ram.strategies = (
        strategy(&p.rammer_strategy, strategies[0].0, x)?,
        strategy(&p.target_strategy, strategies[1].0, y)?,
    );
    Ok(Box::new(ram.into_model()))
}
