//! What each side may choose in close combat (Chapter 4, Step 2 "Choose an
//! attack" and Step 4 "Choose defense type"): the attack and defence types,
//! which of them a fight allows, and the defence actually rolled when a
//! planned one is not allowed.

use super::situation::Fight;

/// "Attack types" (Step 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Attack {
    /// "Use CC weapon: ... Add stats according to weapon."
    Weapon,
    /// "Kick: +1 CC stat."
    Kick,
    /// "Punch: +1 Strength"
    Punch,
    /// "Shove: +2 CC. Causes no wounds. Knocks the enemy back 1 inch for
    /// every "wound" roll passed (maximum attackers Strength)"
    Shove,
    /// "Head butt: Opponent –1 Body."
    HeadButt,
    /// "Leg sweep: opponent cannot use break off maneuver, and must spend 1
    /// AP getting up."
    LegSweep,
    /// "Tackle: ... If object is hit, enemy must make inches traveled wound
    /// saves, otherwise no wounds are caused." (no object here)
    Tackle,
    /// "Bunt: ... Add str+2 to the attack. If attack hits, roll a d6. On a
    /// 6 the weapon breaks."
    Bunt,
    /// "Point blank shot: ... attacker must make 1 wound save for every to
    /// hit dice that misses."
    PointBlank,
}

/// Every attack type with its word, in order.
pub const ATTACKS: [(Attack, &str); 9] = [
    (Attack::Weapon, "weapon"),
    (Attack::Kick, "kick"),
    (Attack::Punch, "punch"),
    (Attack::Shove, "shove"),
    (Attack::HeadButt, "head_butt"),
    (Attack::LegSweep, "leg_sweep"),
    (Attack::Tackle, "tackle"),
    (Attack::Bunt, "bunt"),
    (Attack::PointBlank, "point_blank_shot"),
];

/// The attack types' words, in [`ATTACKS`] order (taken from it, so the two
/// cannot drift).
pub const ATTACK_WORDS: &[&str] = &{
    let mut w = [""; ATTACKS.len()];
    let mut i = 0;
    while i < w.len() {
        w[i] = ATTACKS[i].1;
        i += 1;
    }
    w
};

/// "Choose a defense class" and "Choose defense type" (Steps 1 and 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Defence {
    /// Passive defence: the roll to avoid the hit with no bonus (free).
    Passive,
    /// "Parry: Add your close combat weapons stat before the K to your CC
    /// roll. Both the defending and attacking player must be using a close
    /// combat weapon."
    Parry,
    /// "Deflect: Using a ranged weapon to block, you get +2 to your CC. If
    /// hits are negated, roll a D6. On a 6 the weapon breaks."
    Deflect,
    /// "Dodge: Add +2 to your speed stat for avoiding the hit."
    Dodge,
    /// "Break off: If the attacker misses in their attempt to hit you, you
    /// can remove yourself from combat".
    BreakOff,
    /// "Block: You can use your Str stat instead of Speed for blocking."
    Block,
    /// "Counter attack: Roll to dodge as normal, but do not take any of the
    /// attackers dice away. If you get more successes than the attacker, you
    /// can attack once for free. If you fail, the attacker gets one attack
    /// for free."
    Counter,
}

/// Every defence with its word, in order.
pub const DEFENCES: [(Defence, &str); 7] = [
    (Defence::Passive, "passive"),
    (Defence::Parry, "parry"),
    (Defence::Deflect, "deflect"),
    (Defence::Dodge, "dodge"),
    (Defence::BreakOff, "break_off"),
    (Defence::Block, "block"),
    (Defence::Counter, "counter_attack"),
];

/// The defences' words, in [`DEFENCES`] order (taken from it).
pub const DEFENCE_WORDS: &[&str] = &{
    let mut w = [""; DEFENCES.len()];
    let mut i = 0;
    while i < w.len() {
        w[i] = DEFENCES[i].1;
        i += 1;
    }
    w
};

/// Why an attack or defence cannot be chosen, or `None`.
pub fn unavailable(f: &Fight, a: Attack, d: Defence) -> Option<&'static str> {
    if a == Attack::Weapon && f.attacker.weapon.is_none() {
        return Some("'weapon' needs the attacker's close-combat weapon");
    }
    if matches!(a, Attack::Bunt | Attack::PointBlank) && !f.attacker.ranged_weapon {
        return Some("bunt and point blank shot need the attacker's ranged weapon");
    }
    if d == Defence::Parry && (a != Attack::Weapon || f.defender.weapon.is_none()) {
        return Some(
            "parry: \"Both the defending and attacking player must be using a close combat weapon\"",
        );
    }
    if d == Defence::Parry && f.defender.weapon.is_some_and(|w| w.wrap) {
        return Some("\"Wrapping weapons cannot parry\"");
    }
    if d == Defence::Parry && f.attacker.weapon.is_some_and(|w| w.wrap) {
        return Some("a wrapping weapon's \"Opponent cannot use parry\"");
    }
    if d == Defence::Deflect && !f.defender.ranged_weapon {
        return Some("deflect needs the defender's ranged weapon");
    }
    if d == Defence::BreakOff && a == Attack::LegSweep {
        return Some("leg sweep: \"opponent cannot use break off maneuver\"");
    }
    None
}

/// The defence actually rolled when `d` is planned against attack `a`: a
/// defence the attack does not allow (parry against anything but a weapon
/// attack, break off against a leg sweep) falls back to the passive roll.
/// Reading: the defence type is chosen after the attack (Step 4 follows
/// Step 2), so planning "parry" means "parry if it can".
pub fn played(f: &Fight, a: Attack, d: Defence) -> Defence {
    if unavailable(f, a, d).is_none() {
        d
    } else {
        Defence::Passive
    }
}

/// A choice with its word.
pub type Named<T> = (T, &'static str);

/// The attacks and defences available in a fight.
pub fn choices(f: &Fight) -> (Vec<Named<Attack>>, Vec<Named<Defence>>) {
    let attacks: Vec<_> = ATTACKS
        .iter()
        .copied()
        .filter(|(a, _)| unavailable(f, *a, Defence::Passive).is_none())
        .collect();
    let defences: Vec<_> = DEFENCES
        .iter()
        .copied()
        .filter(|(d, _)| {
            attacks
                .iter()
                .any(|(a, _)| unavailable(f, *a, *d).is_none())
        })
        .collect();
    (attacks, defences)
}
