//! An Out of Control vehicle: where it goes, who takes the wheel. Its scenario, parameters and builder.

use super::super::damage::Size;
use super::super::movement::{DriverState, OutOfControl};
use super::common::*;
use crate::systems::{Model, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `out_of_control` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const OUT_OF_CONTROL_SCENARIO: Scenario = Scenario {
    name: "out_of_control",
    about: "an Out of Control vehicle: turns until a crew member takes the wheel (4+) or the Down driver recovers",
    seed_section: "Vehicles, Out of Control Vehicles; Taking the wheel",
    params: OutOfControlParams::decls,
    metrics: super::super::out_of_control_metric_catalog,
    build: build_out_of_control,
    variants: &[],
    test_points: &[
        &[("size", "small"), ("crew_able", "1"), ("driver", "down")],
        &[("crew_able", "2")],
    ],
    refusals: &[Refusal {
        what: "a driver asleep",
        point: 0,
        set: &[("driver", "asleep")],
        unset: &[],
        field: "driver",
        words: &["'asleep' is not one of: gone, down"],
    }],
    naive: crate::systems::gce::naive::OUT_OF_CONTROL,
};

const OUT_OF_CONTROL: &str = "Vehicles, Out of Control Vehicles; Taking the wheel";

crate::param_struct! {
    /// Parameters of the out-of-control scenario.
    pub struct OutOfControlParams {
        size: String = choice(&["large", "small"])
            .default("large")
            .about("a small vehicle's crew get one try at the wheel")
            .seed(OUT_OF_CONTROL),
        crew_able: i64 = int(0, 10)
            .default("1")
            .about("crew aboard able to take the wheel (not Down, Pinned or terrified); one tries each turn")
            .seed(OUT_OF_CONTROL),
        driver: String = choice(&["gone", "down"])
            .default("gone")
            .about("the driver is gone (overboard, Out of Action) or Down (recovers on a Flesh Wound)")
            .seed(OUT_OF_CONTROL),
    }
}

/// Builds the out-of-control model.
pub fn build_out_of_control(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = OutOfControlParams::read(p)?;
    Ok(Box::new(
        OutOfControl {
            size: match p.size.as_str() {
                "small" => Size::Small,
                _ => Size::Large,
            },
            crew_able: p.crew_able as u8,
            driver: match p.driver.as_str() {
                "down" => DriverState::Down,
                _ => DriverState::Gone,
            },
        }
        .into_model(TURNS_SHOWN),
    ))
}
