//! Crisis (`seeds/003_e08bb638dba16bed.txt`), a chapter of a tabletop RPG:
//! Skill checks with Extras against the difficulty ladder, contests, turn
//! order, attacks with RoF and action points, damage through armour with
//! Durability, a fight over turns, and healing.
//!
//! The chapter never says which dice make a Skill roll nor how Extras are
//! counted; both are parameters of every scenario (`roll`, a dice
//! expression, and `extras_step`), with defaults that reproduce its one
//! example, "His roll results in a 13. This nets him 2 Extras" (see
//! [`rules::DEFAULT_EXTRAS_STEP`] and docs/DESIGN.md, Readings).

pub mod attack;
pub mod check;
mod counted;
pub mod damage;
pub mod healing;
mod naive;
mod refusals;
pub mod rules;
pub mod scatter;

use crate::systems::{ParamGroup, RuleSet, Scenario, VariantDef};

/// The seed file.
pub const SEED: &str = "003_e08bb638dba16bed.txt";

/// Crisis as the registry sees it.
pub static RULES: RuleSet = RuleSet {
    name: "crisis",
    title: "Crisis (skill checks with Extras, attacks, armour, healing)",
    seed: SEED,
    readings: include_str!("README.md"),
    variants: &[VariantDef {
        name: "dodge_damage",
        values: &["one_nonlethal", "none"],
        about: "A dodged area attack: still deals 1 non-lethal damage ('one_nonlethal', Damage: \"reduced to 0 or lower because of defenses, such as damage reduction or dodging, you still deal 1 non-lethal damage\") or nothing ('none', Dodging: \"move ... away from the AoE effect before you receive any damage or effect from it\")",
    }],
    presets: &[],
    scenarios: &[
        Scenario {
            name: "check",
            about: "a Skill check against a Difficulty Level, with its Extras; or a contest",
            seed_section: "Difficulty; Difficulty Modifier; Stacking Modifiers; Dodging",
            params: check::CheckParams::decls,
            metrics: || check::CHECK_METRICS.to_vec(),
            build: check::build_check,
            test_points: &[
                &[("skill", "2")],
                &[
                    ("skill", "4"),
                    ("difficulty", "Hard"),
                    ("assets", "rope, rope, climbing gear"),
                    ("unfavourable", "1"),
                ],
                &[
                    ("skill", "1"),
                    ("roll", "1d20"),
                    ("extras_step", "3"),
                    ("difficulty", "8"),
                ],
                &[("skill", "3"), ("opponent_skill", "4")],
            ],
            refusals: refusals::CHECK,
            naive: naive::CHECK,
        },
        Scenario {
            name: "turn_order",
            about: "initiative: Mind + circumstance, a PC against an NPC, ties to the PC; a surprise round first",
            seed_section: "Turns; Turn Order; Surprise Round",
            params: check::TurnOrderParams::decls,
            metrics: || check::TURN_ORDER_METRICS.to_vec(),
            build: check::build_turn_order,
            test_points: &[
                &[("pc_mind", "2"), ("npc_mind", "3")],
                &[("pc_mind", "1"), ("npc_mind", "2"), ("surprise", "pc")],
            ],
            refusals: refusals::TURN_ORDER,
            naive: naive::TURN_ORDER,
        },
        Scenario {
            name: "attack",
            about: "one turn's attacks (RoF, AP, cover, ranged / melee / area) and their damage through armour",
            seed_section: "Action Points; Attacks; RoF; Ranged Attacks; Melee Attacks; Area of Effect; Dodging; Cover; Damage; Damage Reduction; Non-lethal damage; Wounds; Lethal",
            params: attack::TurnParams::decls,
            metrics: || attack::TURN_METRICS.to_vec(),
            build: attack::build_turn,
            test_points: &[
                &[
                    ("skill", "3"),
                    ("damage", "5"),
                    ("target_health", "10"),
                    ("armour_dr", "3"),
                    ("armour_durability", "10"),
                    ("rof", "3"),
                    ("attacks", "3"),
                ],
                &[
                    ("skill", "2"),
                    ("kind", "melee"),
                    ("target_parry", "9"),
                    ("damage", "3"),
                    ("target_health", "4"),
                    ("armour_dr", "2"),
                    ("armour_durability", "3"),
                    ("cover", "cover"),
                ],
                &[
                    ("skill", "2"),
                    ("kind", "area"),
                    ("range_penalty", "1"),
                    ("damage", "14"),
                    ("target_health", "6"),
                    ("target_athletics", "2"),
                    ("rof", "2"),
                    ("attacks", "2"),
                    ("intent", "knock_out"),
                ],
                &[
                    ("skill", "3"),
                    ("damage", "2"),
                    ("target_health", "3"),
                    ("armour_dr", "4"),
                    ("armour_durability", "20"),
                    ("rof", "4"),
                    ("attacks", "4"),
                    ("armour_piercing", "false"),
                ],
            ],
            refusals: refusals::ATTACK,
            naive: naive::ATTACK,
        },
        Scenario {
            name: "fight",
            about: "turns of attacks until the target is incapacitated: an absorbing chain over Health, non-lethal wounds, Durability and AP",
            seed_section: "Action Points; RoF; Attacks; Damage; Damage Reduction; Non-lethal damage; Wounds; Lethal",
            params: attack::FightParams::decls,
            metrics: fight_metrics,
            build: attack::build_fight,
            test_points: &[
                &[
                    ("skill", "2"),
                    ("damage", "4"),
                    ("target_health", "8"),
                    ("armour_dr", "2"),
                    ("armour_durability", "6"),
                    ("rof", "3"),
                    ("attack_ap", "2"),
                    ("policy", "all"),
                ],
                &[
                    ("skill", "1"),
                    ("kind", "melee"),
                    ("target_parry", "8"),
                    ("damage", "3"),
                    ("target_health", "5"),
                    ("armour_dr", "3"),
                    ("armour_durability", "4"),
                ],
                &[
                    ("skill", "3"),
                    ("damage", "9"),
                    ("target_health", "6"),
                    ("armour_dr", "1"),
                    ("armour_durability", "2"),
                    ("rof", "3"),
                    ("attack_ap", "2"),
                    ("policy", "best"),
                    ("intent", "knock_out"),
                ],
                &[
                    ("skill", "2"),
                    ("kind", "area"),
                    ("damage", "3"),
                    ("target_health", "4"),
                    ("target_athletics", "3"),
                ],
            ],
            refusals: refusals::FIGHT,
            naive: naive::FIGHT,
        },
        Scenario {
            name: "damage",
            about: "one hit's damage (DMG + Extras + circumstance) through DR and Durability: wounds, armour left, Dying, dead, knocked out",
            seed_section: "Damage; Dealing Damage; Damage Reduction; Non-lethal damage; Wounds; Lethal",
            params: damage::DamageParams::decls,
            metrics: || damage::METRICS.to_vec(),
            build: damage::build,
            test_points: &[
                &[
                    ("skill", "3"),
                    ("damage", "5"),
                    ("target_health", "10"),
                    ("armour_dr", "3"),
                    ("armour_durability", "10"),
                ],
                &[
                    ("skill", "6"),
                    ("difficulty", "challenging"),
                    ("damage", "12"),
                    ("target_health", "8"),
                    ("wounds_before", "3"),
                    ("nonlethal_before", "2"),
                    ("armour_dr", "4"),
                    ("armour_durability", "2"),
                    ("intent", "knock_out"),
                ],
                &[
                    ("extras", "1"),
                    ("damage", "2"),
                    ("target_health", "3"),
                    ("nonlethal_before", "3"),
                    ("armour_dr", "4"),
                    ("armour_durability", "9"),
                ],
                &[
                    ("skill", "2"),
                    ("roll", "1d20"),
                    ("area", "true"),
                    ("damage", "14"),
                    ("damage_circumstance", "1"),
                    ("target_health", "20"),
                    ("armour_dr", "2"),
                    ("armour_durability", "1"),
                    ("armour_piercing", "true"),
                ],
            ],
            refusals: refusals::DAMAGE,
            naive: naive::DAMAGE,
        },
        Scenario {
            name: "scatter",
            about: "a thrown area attack: a hit centres the blast on the target, a miss scatters by a d8 (d6 on hexes) and the range increment; who the blast still catches",
            seed_section: "Area of Effect; Missing an AoE Attack and Hex Grids",
            params: scatter::ScatterParams::decls,
            metrics: || scatter::METRICS.to_vec(),
            build: scatter::build,
            test_points: &[
                &[
                    ("skill", "0"),
                    ("range_increment", "2"),
                    ("thrower_distance", "3"),
                    ("bystander_distance", "2"),
                ],
                &[
                    ("skill", "1"),
                    ("grid", "hex"),
                    ("cover", "heavy"),
                    ("penetrable", "true"),
                    ("range_increment", "3"),
                    ("blast_radius", "2"),
                    ("thrower_distance", "4"),
                    ("bystander_distance", "1"),
                    ("bystander_direction", "2"),
                ],
            ],
            refusals: refusals::SCATTER,
            naive: naive::SCATTER,
        },
        Scenario {
            name: "healing",
            about: "a Medicine check, then daily Body rolls until full Health: days to heal",
            seed_section: "Healing; Healing A Character; Healing A Dying Character; Healing Non-Lethal Damage; Natural Healing",
            params: healing::HealingParams::decls,
            metrics: || healing::METRICS.to_vec(),
            build: healing::build,
            test_points: &[
                &[("health", "10"), ("wounds", "4"), ("body", "1")],
                &[
                    ("health", "6"),
                    ("wounds", "7"),
                    ("body", "0"),
                    ("care", "self"),
                    ("poor_conditions", "true"),
                    ("healer_skill", "2"),
                    ("self_treatment", "true"),
                    ("nonlethal", "3"),
                    ("critical_failure", "fail_by_step"),
                ],
            ],
            refusals: refusals::HEALING,
            naive: naive::HEALING,
        },
    ],
};

/// The fight's metrics: its own, then the turns it takes.
fn fight_metrics() -> Vec<crate::systems::MetricDecl> {
    let mut m = attack::FIGHT_METRICS.to_vec();
    m.extend(crate::engine::repeat_model::round_metrics("turns"));
    m
}
