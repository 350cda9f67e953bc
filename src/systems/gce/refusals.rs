//! What the GCE scenarios must refuse (see `crate::systems::Refusal`):
//! each a change to the scenario's first test point and the error it
//! must give. `tests/refusals.rs` writes each as a spec and runs it.

use crate::systems::Refusal;

/// `shooting`: a weapon misspelt, a save no die can miss.
pub const SHOOTING: &[Refusal] = &[
    Refusal {
        what: "a weapon misspelt",
        set: &[("weapon", "shotta")],
        unset: &[],
        field: "weapon",
        words: &["did you mean 'shoota'"],
    },
    Refusal {
        what: "a 1+ save",
        set: &[("save", "1")],
        unset: &[],
        field: "save",
        words: &["a 1+ save is impossible"],
    },
];

/// `grenade`: an Ammo Roll no D6 gives.
pub const GRENADE: &[Refusal] = &[Refusal {
    what: "an Ammo Roll of 7+",
    set: &[("ammo", "7+")],
    unset: &[],
    field: "ammo",
    words: &["is not an Ammo Roll (2+ to 6+)"],
}];

/// `fire`: fewer than no helpers.
pub const FIRE: &[Refusal] = &[Refusal {
    what: "negative helpers",
    set: &[("helpers", "-1")],
    unset: &[],
    field: "helpers",
    words: &["-1 is impossible"],
}];

/// `hand_to_hand`: a WS past the scale, a weapon misspelt, two
/// double-handed weapons, a custom weapon's stats without one, a Hatred
/// policy without Hatred, an obstacle with nobody charging.
pub const HAND_TO_HAND: &[Refusal] = &[
    Refusal {
        what: "WS 11",
        set: &[("a_ws", "11")],
        unset: &[],
        field: "a_ws",
        words: &["11"],
    },
    Refusal {
        what: "a weapon misspelt",
        set: &[("a_weapons", "chopa")],
        unset: &[],
        field: "a_weapons",
        words: &["did you mean 'choppa'"],
    },
    Refusal {
        what: "two double-handed weapons",
        set: &[("a_weapons", "demilune, uge_choppa")],
        unset: &[],
        field: "a_weapons",
        words: &["double-handed"],
    },
    Refusal {
        what: "custom stats without a custom weapon",
        set: &[("a_weapons", "choppa"), ("a_custom_damage", "D3")],
        unset: &[],
        field: "a_custom_damage",
        words: &["no 'custom' weapon"],
    },
    Refusal {
        what: "a Hatred policy without Hatred",
        set: &[("a_hatred_policy", "best")],
        unset: &[],
        field: "a_hatred_policy",
        words: &["a_hatred"],
    },
    Refusal {
        what: "an obstacle with nobody charging",
        set: &[("charger", "none"), ("obstacle", "true")],
        unset: &[],
        field: "obstacle",
        words: &["charg"],
    },
];

/// `multiple_combat`: a lone attacker is no multiple combat.
pub const MULTIPLE_COMBAT: &[Refusal] = &[Refusal {
    what: "no Attack Dice",
    set: &[("a_attacks", "0")],
    unset: &[],
    field: "a_attacks",
    words: &["0"],
}];

/// `fall`: a warrior's Wounds below one.
pub const FALL: &[Refusal] = &[Refusal {
    what: "no Wounds to lose",
    set: &[("wounds", "0")],
    unset: &[],
    field: "wounds",
    words: &["0 is impossible"],
}];

/// `vehicle_hits`: a vehicle misspelt, a Small Target vehicle, a shot
/// beyond the weapon's long range.
pub const VEHICLE_HITS: &[Refusal] = &[
    Refusal {
        what: "a vehicle misspelt",
        set: &[("vehicle", "ork_truk")],
        unset: &[],
        field: "vehicle",
        words: &["did you mean 'ork_trukk'"],
    },
    Refusal {
        what: "a vehicle as a Small Target",
        set: &[("small_target", "true")],
        unset: &[],
        field: "small_target",
        words: &["never a Small Target"],
    },
    Refusal {
        what: "a shot beyond the weapon's long range",
        set: &[("range", "19")],
        unset: &[],
        field: "range",
        words: &["beyond the weapon's long range 18"],
    },
];

/// `vehicle_fire`: a fire at a location the Hit Location Table lacks.
pub const VEHICLE_FIRE: &[Refusal] = &[Refusal {
    what: "a fire on a location it lacks",
    set: &[("location", "wheel")],
    unset: &[],
    field: "location",
    words: &["did you mean 'wheels'"],
}];

/// `thrust`: a Thrust score no D6 misses.
pub const THRUST: &[Refusal] = &[Refusal {
    what: "a Thrust score of 1+",
    set: &[("thrust", "1+, 3+")],
    unset: &[],
    field: "thrust",
    words: &["2+ to 6+"],
}];

/// `out_of_control`: a driver neither gone nor down.
pub const OUT_OF_CONTROL: &[Refusal] = &[Refusal {
    what: "a driver asleep",
    set: &[("driver", "asleep")],
    unset: &[],
    field: "driver",
    words: &["'asleep' is not one of: gone, down"],
}];

/// `vehicle_hazard`: a hazard misspelt.
pub const VEHICLE_HAZARD: &[Refusal] = &[Refusal {
    what: "a hazard misspelt",
    set: &[("hazard", "squish")],
    unset: &[],
    field: "hazard",
    words: &["did you mean 'squash'"],
}];

/// `ram`: an impact misspelt, a Swerve test in a head-on ram.
pub const RAM: &[Refusal] = &[
    Refusal {
        what: "an unknown impact",
        set: &[("impact", "tbone")],
        unset: &[],
        field: "impact",
        words: &["did you mean 't_bone'"],
    },
    Refusal {
        what: "a Swerve test in a head-on ram",
        set: &[("impact", "head_on")],
        unset: &[],
        field: "target_leadership",
        words: &["head-on"],
    },
];

/// `boarding`: a vehicle without crew to board.
pub const BOARDING: &[Refusal] = &[Refusal {
    what: "no crew",
    set: &[("crew", "0")],
    unset: &[],
    field: "crew",
    words: &["0 is impossible"],
}];

/// `gate`: a gate no Strength can dent.
pub const GATE: &[Refusal] = &[Refusal {
    what: "a gate no Strength can dent",
    set: &[("strength", "2")],
    unset: &[],
    field: "strength",
    words: &["never reach Armour 9"],
}];
