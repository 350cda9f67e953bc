//! Gorkamorka's vehicles: damage by location, fire, movement tests, rams
//! and collisions, squashing, boarding, and the Fort gate (Vehicles;
//! Taking Damage; Boarding Actions; Forts).

pub mod boarding;
pub mod damage;
pub mod fire;
pub mod gate;
pub mod hits;
pub mod movement;
pub mod params;
pub mod rams;

use crate::systems::MetricDecl;
use crate::systems::repeat_model::round_metrics;

/// Every metric of the vehicle-fire scenario, its turns included.
pub fn fire_metric_catalog() -> Vec<MetricDecl> {
    fire::VEHICLE_FIRE_METRICS
        .into_iter()
        .chain(round_metrics("turns"))
        .collect()
}

/// Every metric of the thrust scenario.
pub fn thrust_metric_catalog() -> Vec<MetricDecl> {
    movement::THRUST_METRICS.to_vec()
}

/// Every metric of the out-of-control scenario, its turns included.
pub fn out_of_control_metric_catalog() -> Vec<MetricDecl> {
    movement::OUT_OF_CONTROL_METRICS
        .into_iter()
        .chain(round_metrics("turns"))
        .collect()
}

/// Every metric of the gate scenario, its turns included.
pub fn gate_metric_catalog() -> Vec<MetricDecl> {
    gate::GATE_METRICS
        .into_iter()
        .chain(round_metrics("turns"))
        .collect()
}
