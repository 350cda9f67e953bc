//! What the BFG scenarios must refuse (see `crate::systems::Refusal`):
//! each a change to the scenario's first test point and the error it
//! must give. `tests/refusals.rs` writes each as a spec and runs it.

use crate::systems::Refusal;

/// `ram`: a ship preset misspelt, more damage left than a ship has.
pub const RAM: &[Refusal] = &[
    Refusal {
        what: "a ship preset misspelt",
        set: &[("target", "unclen")],
        unset: &[],
        field: "target",
        words: &["did you mean 'unclean'"],
    },
    Refusal {
        what: "more damage left than any ship has",
        set: &[("target_damage", "200")],
        unset: &[],
        field: "target_damage",
        words: &["from 0 to 100"],
    },
];

/// `boarding`: a second ship boarding without its damage.
pub const BOARDING: &[Refusal] = &[Refusal {
    what: "two ships boarding, the second without preset or damage",
    set: &[("boarding_ships", "2")],
    unset: &[],
    field: "attacker2_damage",
    words: &["attacker2 to a ship preset"],
}];

/// `hit_and_run`: two teleport attacks in a turn.
pub const HIT_AND_RUN: &[Refusal] = &[Refusal {
    what: "more than one teleport attack a turn",
    set: &[("attack", "teleport")],
    unset: &[],
    field: "attacks",
    words: &["only make one teleport attack each turn"],
}];

/// `disengage`: a Leadership past the scale.
pub const DISENGAGE: &[Refusal] = &[Refusal {
    what: "Leadership 13",
    set: &[("leadership", "13")],
    unset: &[],
    field: "leadership",
    words: &["from 1 to 12"],
}];

/// `asteroid_field`: a flag that is not true or false.
pub const ASTEROID_FIELD: &[Refusal] = &[Refusal {
    what: "attack craft as a word",
    set: &[("attack_craft", "yes")],
    unset: &[],
    field: "attack_craft",
    words: &["true or false"],
}];

/// `warp_rift`: shields, which the rift does not read.
pub const WARP_RIFT: &[Refusal] = &[Refusal {
    what: "shields in a warp rift",
    set: &[("shields", "1")],
    unset: &[],
    field: "shields",
    words: &["unknown parameter 'shields'"],
}];
