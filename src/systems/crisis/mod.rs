//! Crisis (`seeds/003_e08bb638dba16bed.txt`), a chapter of a tabletop RPG:
//! Skill checks with Extras against the difficulty ladder, contests, turn
//! order, attacks with RoF and action points, damage through armour with
//! Durability, a fight over turns, healing, and an ambush: several
//! attackers on one target (a volley) and the rounds it takes.
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
mod reload;
pub mod rules;
pub mod scatter;
pub mod volley;

use crate::systems::{RuleSet, Variant};

/// The seed file.
pub const SEED: &str = "003_e08bb638dba16bed.txt";

/// Crisis as the registry sees it.
pub static RULES: RuleSet = RuleSet {
    name: "crisis",
    title: "Crisis (skill checks with Extras, attacks, armour, healing)",
    seed: SEED,
    readings: include_str!("README.md"),
    variants: &[attack::DodgeDamage::DEF],
    presets: &[],
    scenarios: &[
        check::CHECK_SCENARIO,
        check::TURN_ORDER_SCENARIO,
        attack::ATTACK_SCENARIO,
        attack::FIGHT_SCENARIO,
        damage::DAMAGE_SCENARIO,
        scatter::SCATTER_SCENARIO,
        healing::HEALING_SCENARIO,
        volley::VOLLEY_SCENARIO,
        volley::TURNS_TO_KILL_SCENARIO,
    ],
};
