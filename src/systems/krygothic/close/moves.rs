//! The moves each side picks from in close combat: the attack types
//! (Chapter 4, Step 2 "Choose an attack") and the defence types (Step 4
//! "Choose defense type"), with the words specs name them by. Which of
//! them a fight allows is [`super::situation::unavailable`].

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
