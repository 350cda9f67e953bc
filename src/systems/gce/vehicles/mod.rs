//! Gorkamorka's vehicles: damage by location, fire, movement tests, rams
//! and collisions, squashing, boarding, and the Fort gate (Vehicles;
//! Taking Damage; Boarding Actions; Forts).

pub mod damage;
pub mod fire;
pub mod hits;
pub mod movement;
pub mod rams;
