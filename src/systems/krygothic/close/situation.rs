//! The two sides of a close-combat exchange and what stands between them
//! (Chapter 2's profiles, Chapter 3's initiating and charging, Chapter 6's
//! fear): each fighter's stat line and weapons, the situation, which
//! attacks and defences it allows, and the numbers an attack is rolled with
//! after every modifier (Chapter 4, Steps 2-6).

use super::moves::{ATTACKS, Attack, DEFENCES, Defence};
use crate::systems::krygothic::dice::{Critical, Reading, p_attribute_check};

/// A close-combat weapon: "-1cc/+2str", maybe armour piercing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CcWeapon {
    /// Before the /: added to CC.
    pub cc: i32,
    /// After the /: added to Strength.
    pub strength: i32,
    /// "If the word armor piercing is with the weapon, then reduce amour".
    pub armour_piercing: bool,
    /// "Multiple wounds: All dice that pass cause 1 wound each": no AP for
    /// the extra wounds.
    pub multiple_wounds: bool,
    /// "Wrap: Opponent cannot use parry ... Wrapping weapons cannot parry."
    pub wrap: bool,
    /// "Lasso: If weapon causes any wounds, the victim falls over. 1AP must
    /// be spent to stand back up."
    pub lasso: bool,
}

/// One side's stat line and kit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fighter {
    /// CC.
    pub cc: i32,
    /// Strength.
    pub strength: i32,
    /// Speed.
    pub speed: i32,
    /// Body.
    pub body: i32,
    /// Armour bonus (the save added to Body).
    pub save: i32,
    /// Willpower.
    pub will: i32,
    /// A close-combat weapon, if any.
    pub weapon: Option<CcWeapon>,
    /// Carries a ranged weapon (bunt, point blank shot, deflect).
    pub ranged_weapon: bool,
}

/// Who causes fear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dread {
    /// Nothing.
    None,
    /// The attacker causes fear: "the victim unit must roll a willpower
    /// roll against a target of 6. If they fail, halve their CC attribute
    /// for the first attack".
    Fear,
    /// Pure horror: "halve the non-horror causing units WILL attribute
    /// (rounded down), and roll against a target number of 6", with the
    /// same effects as fear.
    PureHorror,
}

crate::variant_enum! {
    /// When a deflecting ranged weapon breaks.
    pub enum DeflectBreak = "deflect_break" {
        /// Step 4: "If hits are negated, roll a D6. On a 6 the weapon breaks."
        OnSix = "on_six",
        /// Step 5, Example #2: "because he chose 'deflect' and he succeded in
        /// removing two dice from the attacker, he must make a roll of 4 (base
        /// 2+2) to see if the weapon breaks. He rolls a 4 and is ok": the D6
        /// must reach 2 + the dice negated, and breaks below it.
        Example = "example",
    }
    about: "a deflecting ranged weapon that negated hits breaks: 'on_six' = \"roll a D6. On a 6 the weapon breaks\" (Step 4); 'example' = below 2 + the dice negated (Example #2: \"a roll of 4 (base 2+2) ... He rolls a 4 and is ok\", two dice removed)",
}

impl DeflectBreak {
    /// Whether the weapon breaks on `face` after `negated` dice were
    /// removed (at least one).
    pub fn breaks(self, face: u32, negated: u8) -> bool {
        match self {
            DeflectBreak::OnSix => face == 6,
            DeflectBreak::Example => face < 2 + u32::from(negated),
        }
    }

    /// P(the weapon breaks) after `negated` dice were removed.
    pub fn p_breaks(self, negated: u8) -> f64 {
        (1..=6u32).filter(|&f| self.breaks(f, negated)).count() as f64 / 6.0
    }
}

crate::variant_enum! {
    /// How a counter attack's roll reads "Roll to dodge as normal" (variant
    /// `counter_roll`).
    pub enum CounterRoll = "counter_roll" {
        /// Step 5's normal roll to avoid the hit, "roll ccKspeed", with no
        /// bonus of its own: "as normal, but do not take any of the attackers
        /// dice away" sets aside Step 5's "For each dice that passes, remove
        /// one dice of the attacker".
        Plain = "plain",
        /// The Dodge defence's roll: "Dodge: Add +2 to your speed stat for
        /// avoiding the hit", so CC dice keeping up to Speed + 2.
        Dodge = "dodge",
    }
    about: "a counter attack's \"Roll to dodge as normal, but do not take any of the attackers dice away\": 'plain' = Step 5's normal roll to avoid the hit, CC dice keeping up to Speed; 'dodge' = the Dodge defence's roll, Speed + 2 (\"Dodge: Add +2 to your speed stat\")",
}

/// A close-combat situation between two fighters.
#[derive(Clone, Copy, Debug)]
pub struct Fight {
    /// The attacker.
    pub attacker: Fighter,
    /// The defender.
    pub defender: Fighter,
    /// The attacker initiated the combat: "+1 bonus to their CC" in the
    /// first round.
    pub initiator: bool,
    /// The attacker charged: "+2 bonus to their CC" in the first round.
    pub charged: bool,
    /// The defender charged in: "a body stat of -2 for the first attack
    /// the opponent has" (this attack).
    pub defender_charged: bool,
    /// Fear or pure horror caused by the attacker.
    pub dread: Dread,
    /// The 7+ reading.
    pub reading: Reading,
    /// The 18-from-sixes reading.
    pub critical: Critical,
    /// When a deflecting weapon breaks.
    pub deflect_break: DeflectBreak,
    /// What a counter attack's defence roll keeps.
    pub counter_roll: CounterRoll,
}

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

/// The numbers of one attack after every modifier, for one fear outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbers {
    /// Attacker's CC (dice, and the defender's target).
    pub att_cc: i32,
    /// Attacker's Str (to-hit dice kept at most).
    pub att_str: i32,
    /// Defender's CC (the attacker's target).
    pub def_cc: i32,
    /// Defence dice.
    pub def_dice: i32,
    /// Defence passes kept at most (Speed, or Str with Block).
    pub def_keep: i32,
    /// The wound target.
    pub to_wound: i32,
    /// The wound target of the attacker's own unit after a critical fail:
    /// its Body + save, with the attack's own modifiers (armour piercing,
    /// head butt).
    pub own_to_wound: i32,
}

impl Fight {
    /// The numbers of attack `a` against defence `d`, the defender's CC
    /// halved (rounded down) when `fear_failed`.
    pub fn numbers(&self, a: Attack, d: Defence, fear_failed: bool) -> Numbers {
        let (at, de) = (&self.attacker, &self.defender);
        let w = at.weapon.unwrap_or_default();
        let mut att_cc = at.cc + i32::from(self.initiator) + 2 * i32::from(self.charged);
        let mut att_str = at.strength;
        let mut body = de.body - 2 * i32::from(self.defender_charged);
        let mut save = de.save;
        let mut own_body = at.body;
        let mut own_save = at.save;
        match a {
            Attack::Weapon => {
                att_cc += w.cc;
                att_str += w.strength;
                if w.armour_piercing {
                    // "reduce amour as per normal": by the weapon's strength
                    save = (save - w.strength.max(0)).max(0);
                    own_save = (own_save - w.strength.max(0)).max(0);
                }
            }
            Attack::Kick => att_cc += 1,
            Attack::Punch => att_str += 1,
            Attack::Shove => att_cc += 2,
            Attack::HeadButt => {
                body -= 1;
                own_body -= 1;
            }
            Attack::Bunt => att_str += 2,
            Attack::LegSweep | Attack::Tackle | Attack::PointBlank => {}
        }
        let def_cc = if fear_failed { de.cc / 2 } else { de.cc };
        let dw = de.weapon.unwrap_or_default();
        let def_dice = def_cc
            + match d {
                Defence::Parry => dw.cc,
                Defence::Deflect => 2,
                _ => 0,
            };
        let def_keep = match d {
            Defence::Dodge => de.speed + 2,
            // "Counter attack: Roll to dodge as normal"
            Defence::Counter if self.counter_roll == CounterRoll::Dodge => de.speed + 2,
            Defence::Block => de.strength,
            _ => de.speed,
        };
        Numbers {
            att_cc,
            att_str,
            def_cc,
            def_dice,
            def_keep,
            to_wound: body + save,
            own_to_wound: own_body + own_save,
        }
    }

    /// P(the defender fails its fear or pure horror test).
    pub fn p_fear_fails(&self) -> f64 {
        match self.dread {
            Dread::None => 0.0,
            Dread::Fear => {
                1.0 - p_attribute_check(self.defender.will.max(0) as u32, 6, self.reading)
            }
            Dread::PureHorror => {
                1.0 - p_attribute_check((self.defender.will / 2).max(0) as u32, 6, self.reading)
            }
        }
    }

    /// The defender's dice for its fear (or pure horror) test.
    pub fn will_dice(&self) -> u32 {
        match self.dread {
            Dread::PureHorror => (self.defender.will / 2).max(0) as u32,
            _ => self.defender.will.max(0) as u32,
        }
    }
}

/// An average fighter for tests: CC 2, Strength 2, Speed 3, Body 2, no
/// save, Willpower 3, unarmed.
#[cfg(test)]
pub(super) fn joe() -> Fighter {
    Fighter {
        cc: 2,
        strength: 2,
        speed: 3,
        body: 2,
        save: 0,
        will: 3,
        weapon: None,
        ranged_weapon: false,
    }
}

/// A plain fight between two fighters for tests: no initiative, charge or
/// fear, the table's 7+ reading, three sixes critical.
#[cfg(test)]
pub(super) fn fight(attacker: Fighter, defender: Fighter) -> Fight {
    Fight {
        attacker,
        defender,
        initiator: false,
        charged: false,
        defender_charged: false,
        dread: Dread::None,
        reading: Reading::Table,
        critical: Critical::ThreeSixes,
        deflect_break: DeflectBreak::OnSix,
        counter_roll: CounterRoll::Plain,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::krygothic::dice::count_passes;
    use crate::systems::krygothic::ranged::tests::Script;

    /// Step 6: "rolls it against a target of 6 (defender has body 2, and a
    /// flack jacket that confers +4 to his body stat). He rolls a 6 and
    /// strikes the target for 1 wound." And the knife and axe.
    #[test]
    fn wound_example_and_weapons() {
        let def = Fighter { save: 4, ..joe() };
        let f = fight(joe(), def);
        assert_eq!(f.numbers(Attack::Kick, Defence::Passive, false).to_wound, 6);
        assert_eq!(
            count_passes(&mut Script(vec![6, 2], 0), 1, 6, Reading::Table),
            1
        );
        // "a knife is +2cc/-1str ... the user has CC 4, Str 3. This means
        // add 2 to the units CC stat, and subtract 1 from the units Strength"
        let knife = CcWeapon {
            cc: 2,
            strength: -1,
            armour_piercing: false,
            ..CcWeapon::default()
        };
        let att = Fighter {
            cc: 4,
            strength: 3,
            weapon: Some(knife),
            ..joe()
        };
        let n = fight(att, def).numbers(Attack::Weapon, Defence::Passive, false);
        assert_eq!((n.att_cc, n.att_str, n.to_wound), (6, 2, 6));
        let axe = CcWeapon {
            cc: -1,
            strength: 2,
            armour_piercing: true,
            ..CcWeapon::default()
        };
        let att = Fighter {
            weapon: Some(axe),
            ..att
        };
        let n = fight(att, def).numbers(Attack::Weapon, Defence::Passive, false);
        assert_eq!((n.att_cc, n.att_str, n.to_wound), (3, 5, 2 + 4 - 2));
        // head butt -1 Body; a charging defender -2 Body
        let mut f = fight(joe(), def);
        f.defender_charged = true;
        assert_eq!(
            f.numbers(Attack::HeadButt, Defence::Passive, false)
                .to_wound,
            2 + 4 - 3
        );
    }
}
