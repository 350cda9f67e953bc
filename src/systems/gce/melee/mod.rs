//! Hand-to-Hand Combat (seed: "Hand-to-Hand Combat", Steps 0-11; "Multiple
//! Combats"; "Downed Warriors and Multiple Combatant Situations"; "Special
//! rules: Psychology").
//!
//! A round reads only each side's highest Attack Dice, its sixes and its
//! ones, so the dice are drawn as [`Extremes`]: real dice under the sampler,
//! the closed-form law under the exact evaluator. Strikes go through the one
//! hit pipeline ([`Condition::take_hit`]), one strike per sub-step so equal
//! states merge between strikes.
//!
//! The rules, by what they are about:
//! - [`weapons`]: close combat weapons and which of them a warrior fights with;
//! - [`fighter`]: a warrior's profile in combat and its psychology;
//! - [`round`]: one round: scores, criticals and fumbles, the winner, the
//!   strikes, and the laws that draw a round at once;
//! - [`hatred`]: what a Hating warrior re-rolls;
//! - [`duel`]: a one-on-one fight's state and turns.
//!
//! The scenarios built on them, each with its metrics, parameters and
//! builder: [`hand_to_hand`] (one-on-one to the end) and [`multiple_combat`]
//! (one warrior against several); [`params`] declares a warrior's
//! parameters once for both sides, and the seed's named warriors.
//!
//! [`Extremes`]: crate::dice::Extremes
//! [`Condition::take_hit`]: crate::systems::gce::warrior::Condition::take_hit

pub mod duel;
pub mod fighter;
pub mod hand_to_hand;
pub mod hatred;
pub mod multiple_combat;
pub mod params;
pub mod round;
pub mod weapons;

// what the rest of GCE (vehicle boarding, the registry's entries) and the
// tests and benches use
pub use fighter::{Causes, Fighter};
pub use hand_to_hand::duel_model;
pub use multiple_combat::outnumbered_model;
pub use params::PRESETS;
pub(in crate::systems::gce) use params::second_weapon;
pub use params::{FighterParams, FighterRole};
pub use round::Outcome;
pub(in crate::systems::gce) use round::{ClashLaws, StrikeLaws, draw_winner};
pub use weapons::{Armed, MeleeWeapon};
