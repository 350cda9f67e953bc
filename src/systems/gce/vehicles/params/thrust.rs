//! Thrust tests, turn after turn. Its scenario, parameters and builder.

use super::super::damage::{VehicleParams, VehicleRole};
use super::super::movement::{ThrustRun, UNTIL_FAIL_THRUSTS};
use crate::systems::{Model, Opt, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `thrust` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const THRUST_SCENARIO: Scenario = Scenario {
    name: "thrust",
    about: "a vehicle's Thrusts in one Movement Phase: Thrust Tests, turning, the Thruster Buster Table, inches covered",
    seed_section: "Vehicles, Gas Engines; Thrusters; Turning while Thrusting; Failed Thrust Tests",
    params: ThrustParams::decls,
    metrics: super::super::thrust_metric_catalog,
    build: build_thrust,
    variants: &[],
    test_points: &[
        &[
            ("vehicle", "ork_trukk"),
            ("thrusts", "3"),
            ("goal_inches", "20"),
        ],
        &[
            ("vehicle", "ork_trukk"),
            ("thrusts", "0"),
            ("turn_leadership", "7"),
        ],
    ],
    refusals: &[Refusal {
        what: "a Thrust score of 1+",
        point: 0,
        set: &[("thrust", "1+, 3+")],
        unset: &[],
        field: "thrust",
        words: &["2+ to 6+"],
    }],
    naive: crate::systems::gce::naive::THRUST,
};

const THRUST: &str = "Vehicles, Thrusters; Turning while Thrusting; Failed Thrust Tests";

/// The vehicle thrusting.
#[derive(Clone, Debug)]
pub struct Thruster;
impl VehicleRole for Thruster {
    const WHO: &'static str = "the vehicle";
    const THRUST: bool = true;
}

crate::param_struct! {
    /// Parameters of the thrust scenario.
    pub struct ThrustParams {
        ..vehicle: VehicleParams<Thruster>,
        thrusts: i64 = int(0, 20)
            .default("0")
            .about("Thrusts declared this Movement Phase; 0 keeps thrusting until a Test fails")
            .seed(THRUST),
        thrust_inches: i64 = int(1, 12)
            .default("6")
            .about("inches declared for each Thrust (Ork wheeled vehicles up to 6)")
            .seed(THRUST),
        gas_engine_inches: i64 = int(0, 12)
            .default("6")
            .about("inches moved on Gas Engines first")
            .seed("Vehicles, Gas Engines"),
        turn_leadership: Opt<i64> = int(2, 12)
            .about("the driver turns after each Thrust: a Leadership Test on this Leadership (fail: D6\" forward, move over)")
            .seed(THRUST),
        goal_inches: Opt<i64> = int(1, 200)
            .about("inches the move must cover, for P(covers the goal distance)")
            .seed(THRUST),
    }
}

/// Builds the thrust model.
pub fn build_thrust(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = ThrustParams::read(p)?;
    let declared = p.thrusts as u8;
    Ok(Box::new(
        ThrustRun {
            vehicle: p.vehicle.vehicle()?,
            thrusts: if declared == 0 {
                UNTIL_FAIL_THRUSTS
            } else {
                declared
            },
            until_fail: declared == 0,
            inches: p.thrust_inches as u16,
            gas_engine: p.gas_engine_inches as u16,
            turn_leadership: p.turn_leadership.value.map(|l| l as u8),
            goal: p.goal_inches.value.map(|g| g as u16),
        }
        .into_model(),
    ))
}
