//! A warrior in Hand-to-Hand Combat: its profile as the combat reads it
//! (Attacks, Initiative, Strength, the weapons in hand) and its psychology
//! (seed: "Special rules: Psychology": Fear, Terror, Stupidity, Frenzy,
//! Hatred).

use super::weapons::{Armed, Draws};
use crate::dice::Roller;
use crate::systems::gce::tables::leadership_test;
use crate::systems::gce::warrior::WarriorStats;

/// What a warrior's presence does to others (Psychology).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Causes {
    /// Nothing.
    Nothing,
    /// Fear.
    Fear,
    /// Terror ("Warriors that cause Terror also cause Fear").
    Terror,
}

/// What a Hating warrior re-rolls in the first turn of combat ("may choose
/// to reroll their Attack Dice (individual dice or all of them). The second
/// result stands."), decided after both sides rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HatredPolicy {
    /// Keeps every die.
    None,
    /// Re-rolls its ones.
    Ones,
    /// Re-rolls every die when behind.
    AllWhenBehind,
    /// The re-roll that maximises P(winning the round) given both rolls.
    Best,
}

/// A warrior in Hand-to-Hand Combat.
#[derive(Clone, Debug, PartialEq)]
pub struct Fighter {
    /// Toughness, Wounds, save, WS and BS (the hit pipeline's view).
    pub stats: WarriorStats,
    /// Attacks characteristic.
    pub attacks: u8,
    /// Initiative (draws).
    pub initiative: u8,
    /// Strength (the weapons' "As User").
    pub strength: u8,
    /// Leadership, when a test may be needed.
    pub leadership: Option<u8>,
    /// Weapons in hand and the Specialisation Bonus.
    pub armed: Armed,
    /// Frenzy: "count as having double their Attacks characteristic
    /// (before any other multipliers)".
    pub frenzy: bool,
    /// Stupidity: "must pass a Leadership at the start of each of their
    /// turns. If they pass then they manage to function normally. If not
    /// ... On a 4+ they fight normally, on a 1 - 3 they instead roll no
    /// Attack Dice." Ignored when Frenzied.
    pub stupid: bool,
    /// Hatred of the opponent, with the re-roll policy (ignored when
    /// Frenzied: see [`Fighter::hating`]).
    pub hatred: Option<HatredPolicy>,
    /// Causes Fear or Terror.
    pub causes: Causes,
    /// Higher Up: +1 "for the duration of the combat".
    pub higher_up: bool,
    /// Higher up for the first round only: a Fort's defenders, whose
    /// chargers "count as traversing an obstacle and their opponents will
    /// count as being higher up for the first round of Hand-to-Hand
    /// Combat".
    pub higher_up_first_round: bool,
    /// Any other combat score modifier, every round.
    pub modifier: i32,
}

impl Fighter {
    /// Its Higher Up modifier in the first round or a later one.
    pub fn higher_up_bonus(&self, first: bool) -> i32 {
        i32::from(self.higher_up || (first && self.higher_up_first_round))
    }

    /// Attack Dice this round, before any Multiple Combat bonus.
    pub fn attack_dice(&self) -> u8 {
        self.attacks * if self.frenzy { 2 } else { 1 } + self.armed.bonus_dice
    }

    /// Initiative in a drawn round, or `None` for "always loses draws".
    pub(super) fn draw_initiative(&self) -> Option<u8> {
        let mut i = self.initiative;
        for w in &self.armed.in_hand {
            match w.draws {
                Draws::Loses => return None,
                Draws::Spear => i = self.initiative + 1,
                Draws::Initiative => {}
            }
        }
        Some(i)
    }

    /// Its Hatred as it fights: "Frenzied Warriors ignore Fear, Terror,
    /// Stupidity, and Hatred", so a Frenzied warrior neither re-rolls nor
    /// tests on Leadership 10.
    pub fn hating(&self) -> Option<HatredPolicy> {
        if self.frenzy { None } else { self.hatred }
    }

    /// Whether Stupidity acts on it: "Frenzied Warriors ignore ...
    /// Stupidity".
    pub fn is_stupid(&self) -> bool {
        self.stupid && !self.frenzy
    }

    /// Whether it needs a Leadership characteristic for Stupidity: a
    /// Stupid warrior tests every turn, unless Hatred makes it Leadership
    /// 10.
    pub fn needs_leadership_for_stupidity(&self) -> bool {
        self.is_stupid() && self.hating().is_none()
    }

    /// The Leadership it tests on ("If there are Hated enemies in Line Of
    /// Sight the affected Warrior counts as having Leadership 10").
    pub(super) fn test_leadership(&self) -> u8 {
        let ld = self.leadership.unwrap_or(0);
        if self.hating().is_some() {
            ld.max(10)
        } else {
            ld
        }
    }

    /// Stupidity at the start of a turn: "must pass a Leadership at the
    /// start of each of their turns. If they pass then they manage to
    /// function normally. If not they're restricted to the following
    /// rules". Whether it is restricted this round (never when not Stupid).
    pub(super) fn fails_stupidity(&self, dice: &mut impl Roller) -> bool {
        self.is_stupid() && !leadership_test(dice, u32::from(self.test_leadership()))
    }

    /// Whether the charge may call for a Leadership test against `other`
    /// (a Stupid warrior tests unless it failed its Stupidity test).
    pub fn tests_against(&self, other: &Fighter) -> bool {
        self.dread_of(other, false).is_some()
    }

    /// Whether it tests at all against what `other` causes, and whether a
    /// failure counts as Terror. Fear-causers are immune to Fear and treat
    /// Terror as Fear; Terror-causers are immune to both; a Stupid warrior
    /// that failed its Stupidity test (`restricted`) "automatically passes
    /// Tests against being affected by Fear or Terror"; "Frenzied Warriors
    /// ignore Fear, Terror".
    pub(super) fn dread_of(&self, other: &Fighter, restricted: bool) -> Option<Causes> {
        if restricted || self.frenzy {
            return None;
        }
        match (other.causes, self.causes) {
            (Causes::Nothing, _) | (_, Causes::Terror) => None,
            (Causes::Fear, Causes::Fear) => None,
            (Causes::Terror, Causes::Fear) => Some(Causes::Fear),
            (c, Causes::Nothing) => Some(c),
        }
    }
}

/// A warrior's nerve for the whole combat after the charge's tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Nerve {
    /// Fights as normal.
    #[default]
    Steady,
    /// Failed a Fear test: "fight as if their Weapon Skill was halved
    /// (rounding up)".
    Afraid,
    /// Failed a Terror test: "they will count as having Weapon Skill 0".
    Terrified,
}

impl Nerve {
    pub(super) fn ws(self, ws: u8) -> u8 {
        match self {
            Nerve::Steady => ws,
            Nerve::Afraid => ws.div_ceil(2),
            Nerve::Terrified => 0,
        }
    }
}

/// A warrior of the seed's examples for tests: Toughness 3, 1 Wound, no
/// save, Initiative and Strength 3, Leadership 7, two hands holding
/// `weapons` (by name).
#[cfg(test)]
pub(super) fn warrior(ws: u8, attacks: u8, weapons: &[&str]) -> Fighter {
    use super::weapons::MeleeWeapon;
    let carried: Vec<MeleeWeapon> = weapons
        .iter()
        .map(|w| MeleeWeapon::named(w).unwrap())
        .collect();
    Fighter {
        stats: WarriorStats {
            toughness: 3,
            wounds: 1,
            save: None,
            ws,
            bs: 3,
            pin_immune: false,
        },
        attacks,
        initiative: 3,
        strength: 3,
        leadership: Some(7),
        armed: Armed::from_carried(&carried, 2).unwrap(),
        frenzy: false,
        stupid: false,
        hatred: None,
        causes: Causes::Nothing,
        higher_up: false,
        higher_up_first_round: false,
        modifier: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::gce::melee::weapons::{ArmsError, MeleeWeapon};

    #[test]
    fn the_seeds_attack_dice_examples() {
        // "Grimgutz has a Shoota and a Choppa ... He rolls a single Attack Dice"
        assert_eq!(warrior(3, 1, &["shoota", "choppa"]).attack_dice(), 1);
        // "Krixit ... with his own Choppa and an Attack characteristic of 1
        // rolls two Attack Dice"
        assert_eq!(warrior(2, 1, &["choppa"]).attack_dice(), 2);
        // "Ibstekia, a Digga Yoof with two Sluggas and a Choppa rolls two"
        let ibstekia = warrior(2, 1, &["choppa", "slugga", "slugga"]);
        assert_eq!(ibstekia.attack_dice(), 2);
        let names: Vec<&str> = ibstekia
            .armed
            .in_hand
            .iter()
            .map(|w| w.name.as_str())
            .collect();
        assert_eq!(
            names,
            ["choppa", "slugga"],
            "the extra Slugga stays in its holster"
        );
        // "Uxolur ... carries a Demilune ... his Attacks characteristic shows
        // how many Attack Dice he can roll"
        assert_eq!(warrior(3, 2, &["demilune"]).attack_dice(), 2);
        assert_eq!(
            Armed::from_carried(
                &[
                    MeleeWeapon::named("demilune").unwrap(),
                    MeleeWeapon::named("uge_choppa").unwrap()
                ],
                2
            ),
            Err(ArmsError::TwoDoubleHanded(
                "demilune".into(),
                "uge_choppa".into()
            ))
        );
    }
}
