//! Gorkamorka Community Edition (`seeds/002_8c1a109281471897.txt`): the
//! list of its scenarios, its rule variants, presets and named dice. Each
//! scenario is one module in the folder of the mechanic it builds:
//! `shooting/scenario.rs`, `hazards/{grenade,fire,fall,jump,edge}.rs`,
//! `bottle.rs`, `psychology/{terror,stupidity}.rs`,
//! `melee/{hand_to_hand,multiple_combat}.rs`, `vehicles/params/*.rs`.

pub mod bottle;
pub mod hazards;
pub mod melee;
mod naive;
pub mod psychology;
pub mod shooting;
pub mod tables;
pub mod target;
pub mod vehicles;
pub mod warrior;
pub mod weapon;

use crate::dice::NamedDie;
use crate::systems::{ParamError, ParamGroup, Params, RuleSet, Variant, VariantDef};
use shooting::ShootingModel;
use shooting::scenario::{ShootingParams, shooting_model};

/// GCE as the registry sees it.
pub static RULES: RuleSet = RuleSet {
    name: "gce",
    title: "Gorkamorka Community Edition",
    seed: tables::SEED,
    readings: include_str!("README.md"),
    variants: VARIANTS,
    presets: PRESETS,
    scenarios: &[
        shooting::scenario::SHOOTING_SCENARIO,
        shooting::volley::VOLLEY_SCENARIO,
        shooting::volley::TURNS_TO_KILL_SCENARIO,
        hazards::grenade::GRENADE_SCENARIO,
        hazards::fire::FIRE_SCENARIO,
        melee::hand_to_hand::HAND_TO_HAND_SCENARIO,
        melee::multiple_combat::MULTIPLE_COMBAT_SCENARIO,
        hazards::fall::FALL_SCENARIO,
        hazards::jump::JUMP_SCENARIO,
        hazards::edge::EDGE_SCENARIO,
        bottle::BOTTLE_SCENARIO,
        psychology::terror::TERROR_SCENARIO,
        psychology::stupidity::STUPIDITY_SCENARIO,
        vehicles::params::hits::VEHICLE_HITS_SCENARIO,
        vehicles::params::fire::VEHICLE_FIRE_SCENARIO,
        vehicles::params::thrust::THRUST_SCENARIO,
        vehicles::params::out_of_control::OUT_OF_CONTROL_SCENARIO,
        vehicles::params::hazard::VEHICLE_HAZARD_SCENARIO,
        vehicles::params::ram::RAM_SCENARIO,
        vehicles::params::boarding::BOARDING_SCENARIO,
        vehicles::params::gate::GATE_SCENARIO,
    ],
};

/// Every GCE preset: weapons for shooting, warriors for hand-to-hand.
const PRESETS: &[crate::systems::PresetDecl] = &{
    const W: usize = weapon::PRESETS.len();
    const M: usize = melee::PRESETS.len();
    const V: usize = vehicles::damage::PRESETS.len();
    let mut all = [weapon::PRESETS[0]; W + M + V];
    let mut i = 0;
    while i < W + M + V {
        all[i] = if i < W {
            weapon::PRESETS[i]
        } else if i < W + M {
            melee::PRESETS[i - W]
        } else {
            vehicles::damage::PRESETS[i - W - M]
        };
        i += 1;
    }
    all
};

/// The dice GCE adds to the dice-expression language (`krunch prob sf+sf`),
/// gathered with every rule set's in [`crate::systems::named_dice`].
pub const NAMED_DICE: &[NamedDie] = &[tables::SUSTAINED_FIRE];

/// Rule variants of GCE.
pub const VARIANTS: &[VariantDef] = &[
    target::Overwatch::DEF,
    vehicles::rams::LargeRake::DEF,
    vehicles::boarding::BoardingBonus::DEF,
    vehicles::boarding::LoserThrown::DEF,
    vehicles::boarding::StationaryHits::DEF,
    melee::weapons::SecondWeapon::DEF,
    melee::multiple_combat::FirstRound::DEF,
    melee::multiple_combat::FearTests::DEF,
];

/// Builds the shooting model from the spec's parameters as given, for
/// tests and benches that need its two samplers: presets are filled in
/// and values checked against [`ShootingParams`] here, as the registry
/// does before it builds a scenario. It lives here, not in
/// `shooting/scenario.rs`, because it reads [`RULES`]' presets: from the
/// scenario's module that would be an import cycle with this one.
pub fn build_shooting(given: &Params, variants: &Params) -> Result<ShootingModel, ParamError> {
    let decls = ShootingParams::decls();
    let p = RULES.resolve(&decls, given)?.bound(decls);
    shooting_model(&p, &variants.bound(RULES.variant_decls()))
}
