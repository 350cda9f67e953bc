//! The D20 sci-fi skirmish tables (`seeds/001_9921de03e7af5dba.txt`): the
//! Ranged and Close Combat Weapons Factor Charts as data a spec extends
//! (every row a preset; a row of one's own is text in the chart's column
//! order), to hit and penetrate with its modifiers, jams, blasts and
//! lock-on, the Effect of Hit Chart, the Vehicle Damage Table as a Markov
//! chain, Quick Draw initiative, hit allocation, Necron repair, close
//! combat, and a squad under fire over turns.
//!
//! Each scenario is one module, the module of the rule it builds, so the
//! rule and the question asked of it are read together: its `Scenario`
//! const, parameter struct, builder, test points, refusals and the tests of
//! that builder stand beside the mechanic (`shooting`,
//! `effect_of_hit`, `vehicle` for `vehicle_damage`, `quick_draw`,
//! `hit_allocation`, `necron_repair`, `close` for `close_combat`, `squad`
//! for `squad_under_fire`). The parameter groups several scenarios read
//! are in `shared_params`, the tables in `chart`, one firing in `fire`, the
//! naive loops in `naive`. This file lists them: the rule set, its
//! variants, and a test that spans three scenarios.

pub mod chart;
pub mod close;
pub mod effect_of_hit;
pub mod fire;
pub mod hit_allocation;
mod naive;
pub mod necron_repair;
pub mod overwatch;
pub mod quick_draw;
pub mod shared_params;
pub mod shooting;
pub mod squad;
pub mod vehicle;
pub mod volley;

use crate::systems::{RuleSet, Variant, VariantDef};

/// The seed file.
pub const SEED: &str = "001_9921de03e7af5dba.txt";

/// The D20 skirmish tables as the registry sees them.
pub static RULES: RuleSet = RuleSet {
    name: "skirmish20",
    title: "D20 sci-fi skirmish tables",
    seed: SEED,
    readings: include_str!("README.md"),
    variants: VARIANTS,
    presets: chart::PRESETS,
    scenarios: &[
        shooting::SHOOTING_SCENARIO,
        effect_of_hit::EFFECT_OF_HIT_SCENARIO,
        vehicle::VEHICLE_DAMAGE_SCENARIO,
        quick_draw::QUICK_DRAW_SCENARIO,
        hit_allocation::HIT_ALLOCATION_SCENARIO,
        necron_repair::NECRON_REPAIR_SCENARIO,
        close::CLOSE_COMBAT_SCENARIO,
        squad::SQUAD_UNDER_FIRE_SCENARIO,
        volley::VOLLEY_SCENARIO,
        volley::TURNS_TO_KILL_SCENARIO,
        overwatch::OVERWATCH_SCENARIO,
    ],
};

/// Rule variants: readings where the seed can be read two ways.
pub const VARIANTS: &[VariantDef] = &[
    vehicle::NoMinorGun::DEF,
    quick_draw::Tie::DEF,
    shooting::BlastRoll::DEF,
    squad::WoundAllocation::DEF,
];

#[cfg(test)]
mod tests {
    use crate::systems::testing;

    /// A parameter given is not the same as one left to its default
    /// where the rule says so: each refusal below needs the value given,
    /// and the same point with it left out builds.
    #[test]
    fn given_and_left_out_parameters_are_told_apart() {
        let refused = |scenario: &str, point: &[(&str, &str)], extra: (&str, &str)| {
            testing::model(&super::RULES, scenario, point);
            let with = [point, &[extra]].concat();
            testing::refused(&super::RULES, scenario, &with).field
        };
        // "all others must be used moving": 2 AP given to firing after
        // moving 2 of 3 is refused; left out, firing takes the 1 left
        let moved = [
            ("weapon", "bolt_rifle"),
            ("armour", "std"),
            ("range", "12"),
            ("moved_d6", "2"),
        ];
        assert_eq!(refused("shooting", &moved, ("firing_ap", "2")), "firing_ap");
        let figure = [("weapon", "bolt_rifle"), ("armour", "std"), ("range", "12")];
        assert_eq!(
            refused("shooting", &figure, ("target_minor_guns", "1")),
            "target_minor_guns"
        );
        let tank = [
            ("weapon", "plasma_pistol"),
            ("armour", "tank"),
            ("range", "6"),
        ];
        assert_eq!(
            refused("shooting", &tank, ("target_vehicle", "false")),
            "target_vehicle"
        );
        // a row of one's own costing 2 AP is heavy unless said otherwise:
        // "No wounded human can fire or help fire a heavy weapon"
        let own_row = [
            ("weapon_row", "24 | 8 | 6 | 4 | 1 | 2 | jam"),
            ("armour", "std"),
            ("range", "12"),
            ("firer_wounded", "true"),
            ("weapon_heavy", "false"),
        ];
        assert_eq!(
            testing::refused(&super::RULES, "shooting", &own_row[..4]).field,
            "firer_wounded"
        );
        testing::model(&super::RULES, "shooting", &own_row);
        let figure = [
            ("attacker", "aliens_claws"),
            ("attacker_armour", "std"),
            ("defender", "power_weapon"),
            ("defender_armour", "power"),
        ];
        assert_eq!(
            refused("close_combat", &figure, ("defender_minor_guns", "1")),
            "defender_minor_guns"
        );
        let tank = [
            ("attacker", "anti_tank_grenades"),
            ("attacker_armour", "std"),
            ("defender_armour", "tank"),
        ];
        assert_eq!(
            refused("close_combat", &tank, ("defender_vehicle", "false")),
            "defender_vehicle"
        );
        assert_eq!(
            refused("close_combat", &tank, ("defender_attacks", "1")),
            "defender_attacks"
        );
        // a blast into a squad: how many stand under it must be said, 0
        // included
        let blast = [
            ("shooters", "2"),
            ("weapon", "grenade_launcher"),
            ("range", "20"),
            ("armour", "std"),
            ("troopers", "6"),
            ("others_under_template", "0"),
        ];
        testing::model(&super::RULES, "squad_under_fire", &blast);
        let e = testing::refused(&super::RULES, "squad_under_fire", &blast[..5]);
        assert_eq!(e.field, "others_under_template");
    }
}
