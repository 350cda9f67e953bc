//! A fire aboard a vehicle, turn after turn. Its scenario, parameters and builder.

use super::super::damage::{VehicleParams, VehicleRole};
use super::super::fire::BurningLocation;
use super::common::*;
use crate::param_name;
use crate::systems::{Model, ParamDecl, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `vehicle_fire` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const VEHICLE_FIRE_SCENARIO: Scenario = Scenario {
    name: "vehicle_fire",
    about: "a vehicle location on Fire, turn after turn until it goes out (S4 hit on 1-5, helpers +1 each)",
    seed_section: "Taking Damage, Vehicles Catching Fire",
    params: VehicleFireParams::decls,
    metrics: super::super::fire_metric_catalog,
    build: build_fire,
    variants: &[],
    test_points: &[
        &[
            ("vehicle", "ork_trukk"),
            ("location", "wheels"),
            ("helpers", "2"),
        ],
        &[
            ("vehicle", "ork_trukk"),
            ("location", "crew"),
            ("crew", "2"),
            ("crew_toughness", "3"),
            ("crew_wounds", "1"),
            ("crew_ws", "2"),
            ("crew_bs", "3"),
        ],
    ],
    refusals: &[Refusal {
        what: "a fire on a location it lacks",
        point: 0,
        set: &[("location", "wheel")],
        unset: &[],
        field: "location",
        words: &["did you mean 'wheels'"],
    }],
    naive: crate::systems::gce::naive::VEHICLE_FIRE,
};

/// The vehicle on Fire.
#[derive(Clone, Debug)]
pub struct BurningVehicle;
impl VehicleRole for BurningVehicle {
    const WHO: &'static str = "the burning vehicle";
    const THRUST: bool = false;
}

/// The warriors aboard a vehicle on Fire.
#[derive(Clone, Debug)]
pub struct BurningCrew;
impl CrewRole for BurningCrew {
    const ABOUT: &'static str = "warriors aboard, each hit by a Crew location fire";
    fn hit_by(d: ParamDecl) -> ParamDecl {
        d.needs("location", "crew")
    }
}

crate::param_struct! {
    /// Parameters of the vehicle-fire scenario.
    pub struct VehicleFireParams {
        ..vehicle: VehicleParams<BurningVehicle>,
        location: String = text("wheels")
            .required()
            .about("the location on Fire (a name from the Hit Location Table)")
            .seed(FIRE),
        helpers: i64 = int(0, 10)
            .default("0")
            .about("crew members putting it out each turn (+1 each) instead of shooting")
            .seed(FIRE),
        ..crew: CrewParams<BurningCrew>,
    }
}

/// Builds the vehicle-fire model.
pub fn build_fire(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = VehicleFireParams::read(p)?;
    let vehicle = p.vehicle.vehicle()?;
    let location = location_index(
        &vehicle,
        &p.location,
        param_name!(VehicleFireParams.location),
    )?;
    let crew = p.crew.crew()?;
    if crew.is_some() && vehicle.crew_location() != Some(location) {
        return Err(ParamError::new(
            "crew",
            "the warriors aboard are hit only when the Crew location burns",
        ));
    }
    Ok(Box::new(
        BurningLocation {
            vehicle,
            location,
            helpers: p.helpers as u8,
            crew,
        }
        .into_model(TURNS_SHOWN),
    ))
}
