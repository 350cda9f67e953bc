//! Battlefleet Gothic advanced rules (`seeds/004_d4c8740a73a9c193.txt`):
//! ramming, boarding actions to the end, hit-and-run attacks, critical hits,
//! disengaging and celestial hazards.
//!
//! Each scenario is one module named after it (its `Scenario`, parameters,
//! builder and their tests); `boarding.rs` holds the boarding rule as well.
//! What the ship scenarios share (a ship by preset or stats, the critical
//! results it cannot suffer) is in `ships.rs`; the rules are in
//! `mechanics.rs`, `boarding.rs` and `fast.rs`, their tables in
//! `tables.rs`. Here: the list, the ship presets and the variants.

pub mod asteroid_field;
pub mod battlezone;
pub mod boarding;
pub mod disengage;
pub mod fast;
pub mod gas_cloud;
pub mod hit_and_run;
pub mod low_orbit;
pub mod mechanics;
mod naive;
pub mod radiation_burst;
pub mod ram;
mod ships;
pub mod solar_flare;
pub mod tables;
pub mod warp_rift;

use crate::systems::{PresetDecl, RuleSet, Variant, VariantDef};

/// BFG as the registry sees it.
pub static RULES: RuleSet = RuleSet {
    name: "bfg",
    title: "Battlefleet Gothic (advanced rules)",
    seed: "004_d4c8740a73a9c193.txt",
    readings: include_str!("README.md"),
    variants: VARIANTS,
    presets: PRESETS,
    scenarios: &[
        ram::RAM_SCENARIO,
        boarding::BOARDING_SCENARIO,
        hit_and_run::HIT_AND_RUN_SCENARIO,
        disengage::DISENGAGE_SCENARIO,
        asteroid_field::ASTEROID_FIELD_SCENARIO,
        warp_rift::WARP_RIFT_SCENARIO,
        solar_flare::SOLAR_FLARE_SCENARIO,
        radiation_burst::RADIATION_BURST_SCENARIO,
        gas_cloud::GAS_CLOUD_SCENARIO,
        low_orbit::LOW_ORBIT_SCENARIO,
        battlezone::BATTLEZONE_SCENARIO,
    ],
};

/// Ship presets: only the numbers the seed's examples give.
pub const PRESETS: &[PresetDecl] = &[
    PresetDecl {
        catalogue: "ship",
        name: "agrippa",
        sets: &[
            ("type", "cruiser"),
            ("starting_damage", "8"),
            ("front_armour", "6"),
        ],
        source: "\"The Agrippa, a Lunar class cruiser ... had a starting damage capacity of 8 ... the Agrippa (which has armour 6 on the front thanks to its armoured prow)\"",
    },
    PresetDecl {
        catalogue: "ship",
        name: "unclean",
        sets: &[
            ("type", "cruiser"),
            ("starting_damage", "8"),
            ("armour", "5"),
            ("front_armour", "5"),
        ],
        source: "\"the Unclean, a Murder class Chaos cruiser ... (which has Armour 5) ... (with a starting damage capacity of 8)\"",
    },
    PresetDecl {
        catalogue: "ship",
        name: "hyperion",
        sets: &[("damage", "3")],
        source: "\"the Hyperion (remaining damage 3)\"",
    },
    PresetDecl {
        catalogue: "ship",
        name: "plagueclaw",
        sets: &[("damage", "6")],
        source: "\"the Plagueclaw (remaining damage 6)\"",
    },
];

/// Rule variants: readings where the seed can be read two ways.
pub const VARIANTS: &[VariantDef] = &[
    solar_flare::FlareOnce::DEF,
    radiation_burst::BurstInterference::DEF,
    gas_cloud::GasCheck::DEF,
    low_orbit::OrbitFireRoll::DEF,
    battlezone::RingsOn::DEF,
];
