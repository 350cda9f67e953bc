//! Gorkamorka Community Edition (`seeds/002_8c1a109281471897.txt`): the
//! list of its scenarios, its rule variants, presets and named dice. Each
//! scenario is one module in the folder of the mechanic it builds:
//! `shooting/scenario.rs`, `hazards/{grenade,fire,fall}.rs`,
//! `melee/{hand_to_hand,multiple_combat}.rs`, `vehicles/params/*.rs`.

pub mod hazards;
pub mod melee;
mod naive;
pub mod shooting;
pub mod tables;
pub mod target;
pub mod vehicles;
pub mod warrior;
pub mod weapon;

use crate::dice::NamedDie;
use crate::systems::{ParamError, ParamGroup, Params, RuleSet, VariantDef};
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
        hazards::grenade::GRENADE_SCENARIO,
        hazards::fire::FIRE_SCENARIO,
        melee::hand_to_hand::HAND_TO_HAND_SCENARIO,
        melee::multiple_combat::MULTIPLE_COMBAT_SCENARIO,
        hazards::fall::FALL_SCENARIO,
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
    VariantDef {
        name: "overwatch",
        values: &["current", "original"],
        about: "Overwatch hit modifier: 'current' +1 (v1.4 changelog: \"Buffed Overwatch to give +1 to hit rather than -1\"), 'original' -1",
    },
    VariantDef {
        name: "large_rake",
        values: &["versus_small", "always"],
        about: "Rakes: \"larger Vehicles only take D3 -1\" when raked with a small vehicle ('versus_small', the paragraph is about small vehicles) or whenever raked ('always')",
    },
    VariantDef {
        name: "boarding_bonus",
        values: &["cancelled", "plus_one"],
        about: "Boarders' first fight: charge +1 and obstacle -1 cancel ('cancelled', Charging Vehicles Modifiers) or +1 (the Pilin' On example: \"a +1 as he has successfully boarded this turn\")",
    },
    VariantDef {
        name: "boarding_loser",
        values: &["every_loser", "down_or_out"],
        about: "Who is thrown overboard after a round aboard: every loser ('every_loser', Step 11: \"Regardless of whether they’re Wounded or not\"; Pilin' On throws the losing lead) or only a loser who went Down or Out of Action ('down_or_out', Losing Combat)",
    },
    VariantDef {
        name: "stationary_hits",
        values: &["attacks", "ws"],
        about: "An unopposed boarder's automatic hits on a Stationary vehicle: its Attacks ('attacks', Stationary Vehicles (Close Combat): \"a number of times equal to their Attack Statline\") or its Weapon Skill ('ws', the v1.4 changelog: \"Attacking Stationary Vehicles and Gates patched with WS only\"); a gate's hits are WS under both",
    },
    VariantDef {
        name: "second_weapon",
        values: &["only_with_bonus", "always"],
        about: "A warrior denied the Specialisation Bonus (\"Warriors that are carrying any ranged-only weapons cannot receive this bonus\") fights with the first weapon it lists alone ('only_with_bonus': Grimgutz \"rolls a single Attack Dice\" with his Choppa, the Knife stays out) or still alternates every weapon in hand ('always')",
    },
    VariantDef {
        name: "multiple_first_round",
        values: &["phase", "first_attacker"],
        about: "A multiple combat's first round, where a warrior 'higher up for the first round' (Forts) is higher up: every attacker's fight of the phase ('phase': a round is a turn, as Charging's \"+1 Modifier for that Round. If the combat continues into another turn then the Modifier no longer applies\") or the first attacker's alone ('first_attacker': \"Multiple Combat situations are broken down into several rounds of combat\")",
    },
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
