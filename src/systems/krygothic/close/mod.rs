//! Close combat (Chapter 4, "Steps for Close Combat"): one attack of a
//! chosen type against a chosen defence. To hit: CC dice keeping up to Str
//! that meet the defender's CC; the defence roll: CC dice keeping up to
//! Speed (Str with Block) against the attacker's CC, each pass removing one
//! attacking die; the remaining dice roll to wound against Body + save.
//! Exact by dynamic programmes over both pools' counts and a binomial wound
//! roll; sampled on real dice.
//!
//! The close-combat domain, which the scenarios `close_combat`,
//! `close_combat_game` and `close_combat_fight` share:
//! - [`moves`]: the attack and defence types;
//! - [`situation`]: the fighters, the situation, which moves it allows,
//!   an attack's numbers;
//! - [`exchange`]: one attack played out, its exact law and its roll;
//! - [`params`]: the parameters of both sides and the situation.
//!
//! The one scenario built on it alone, `close_combat` (its metrics, rule,
//! parameters and builder), is [`scenario`].

use crate::systems::{ParamGroup, Refusal, Scenario};

/// The `close_combat` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const CLOSE_COMBAT_SCENARIO: Scenario = Scenario {
    name: "close_combat",
    about: "one close-combat attack of a chosen type against a chosen defence, with the best replies",
    seed_section: "Chapter 4: Steps for Close Combat; Critical passes and fails; Chapter 3: CC attacks; Chapter 6: Fear, Pure horror",
    params: CloseParams::decls,
    metrics: metric_catalog,
    build,
    variants: &[
        "seven_plus",
        "critical_pass",
        "deflect_break",
        "counter_roll",
    ],
    test_points: TEST_POINTS,
    refusals: &[Refusal {
        what: "an attack misspelt",
        point: 0,
        set: &[("attack", "kik")],
        unset: &[],
        field: "attack",
        words: &["did you mean 'kick'"],
    }],
    naive: crate::systems::krygothic::naive::CLOSE_COMBAT,
};
pub mod exchange;
pub mod moves;
pub mod params;
pub mod scenario;
pub mod situation;

// what the other Kry-Gothic modules (the game, the fight over a round, the
// fast sampler) and the registry's entry use
pub(crate) use exchange::pools;
pub use exchange::{CcOut, Exchange};
pub use moves::{ATTACK_WORDS, ATTACKS, Attack, DEFENCE_WORDS, DEFENCES, Defence};
pub use params::{Attacking, Defending, SideParams, SituationParams, counter_roll, dread_of};
pub use scenario::{CloseParams, CloseRule, TEST_POINTS, build, metric_catalog};
pub use situation::{
    CcWeapon, CounterRoll, DeflectBreak, Dread, Fight, Fighter, choices, played, unavailable,
};
