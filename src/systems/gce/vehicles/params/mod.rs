//! The vehicle scenarios' parameters and builders: each reads the vehicle
//! once through [`VehicleParams`] (a preset or a Hit Location Table).
//! One module per scenario; what they share (the crew's profile, seed
//! sections) in `common.rs`.

pub mod boarding;
mod common;
pub mod fire;
pub mod gate;
pub mod hazard;
pub mod hits;
pub mod out_of_control;
pub mod ram;
pub mod thrust;
