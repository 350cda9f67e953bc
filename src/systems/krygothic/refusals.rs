//! What the Kry-Gothic scenarios must refuse (see
//! `crate::systems::Refusal`): each a change to the scenario's first test
//! point and the error it must give. `tests/refusals.rs` writes each as a
//! spec and runs it.

use crate::systems::Refusal;

/// `dice`: keeping more dice than are rolled.
pub const DICE: &[Refusal] = &[Refusal {
    what: "keeping more dice than are rolled",
    set: &[("check", "keep"), ("dice", "3"), ("keep", "4")],
    unset: &[],
    field: "keep",
    words: &["keeps 4 of 3 dice"],
}];

/// `ranged`: a weapon misspelt, the firer's armour without its Body.
pub const RANGED: &[Refusal] = &[
    Refusal {
        what: "a weapon misspelt",
        set: &[("weapon", "pistle")],
        unset: &[],
        field: "weapon",
        words: &["did you mean 'pistol'"],
    },
    Refusal {
        what: "the firer's armour without its Body",
        set: &[("firer_armour", "2")],
        unset: &[],
        field: "firer_armour",
        words: &["firer_body"],
    },
];

/// `close_combat`: an attack misspelt.
pub const CLOSE_COMBAT: &[Refusal] = &[Refusal {
    what: "an attack misspelt",
    set: &[("attack", "kik")],
    unset: &[],
    field: "attack",
    words: &["did you mean 'kick'"],
}];

/// `close_combat_game`: a unit misspelt, a fight's Action Points in a
/// one-attack game.
pub const CLOSE_COMBAT_GAME: &[Refusal] = &[
    Refusal {
        what: "a unit misspelt",
        set: &[("attacker", "average_jo")],
        unset: &[],
        field: "attacker",
        words: &["did you mean 'average_joe'"],
    },
    Refusal {
        what: "a fight's AP in a one-attack game",
        set: &[("attacker_ap", "4")],
        unset: &[],
        field: "attacker_ap",
        words: &["per_ap"],
    },
];

/// `close_combat_fight`: a fight without the attacker's Action Points, a
/// fall-back attack that needs the broken weapon, a weapon counter attack
/// without a weapon, more wounds than a unit takes.
pub const CLOSE_COMBAT_FIGHT: &[Refusal] = &[
    Refusal {
        what: "a fight without the attacker's AP",
        set: &[],
        unset: &["attacker_ap"],
        field: "attacker_ap",
        words: &["missing"],
    },
    Refusal {
        what: "a fall-back attack that needs the broken weapon",
        set: &[("attack_when_broken", "bunt")],
        unset: &[],
        field: "attack_when_broken",
        words: &["cannot need the ranged weapon"],
    },
    Refusal {
        what: "a weapon counter attack without a weapon",
        set: &[("counter_attack", "weapon")],
        unset: &[],
        field: "counter_attack",
        words: &["defender's close-combat weapon"],
    },
    Refusal {
        what: "more wounds than a unit takes",
        set: &[("defender_wounds", "9")],
        unset: &[],
        field: "defender_wounds",
        words: &["9"],
    },
];

/// `pinning`: no shooters at all.
pub const PINNING: &[Refusal] = &[Refusal {
    what: "no shooters",
    set: &[("shooters", "0")],
    unset: &[],
    field: "shooters",
    words: &["0 is impossible"],
}];

/// `fear`: a parameter misspelt.
pub const FEAR: &[Refusal] = &[Refusal {
    what: "a parameter misspelt",
    set: &[("causer", "x")],
    unset: &[],
    field: "causer",
    words: &["did you mean 'cause'"],
}];

/// `action_points`: a team misspelt.
pub const ACTION_POINTS: &[Refusal] = &[Refusal {
    what: "a team misspelt",
    set: &[("team", "ralm")],
    unset: &[],
    field: "team",
    words: &["ralim"],
}];

/// `order_combo`: no units to order.
pub const ORDER_COMBO: &[Refusal] = &[Refusal {
    what: "no units",
    set: &[("units", "0")],
    unset: &[],
    field: "units",
    words: &["0 is impossible"],
}];

/// `damaged_structure`: a parameter it does not have.
pub const DAMAGED_STRUCTURE: &[Refusal] = &[Refusal {
    what: "a parameter it does not have",
    set: &[("structure", "3")],
    unset: &[],
    field: "structure",
    words: &["unknown parameter 'structure'"],
}];
