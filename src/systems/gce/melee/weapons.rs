//! Close combat weapons and what a warrior fights with (seed: "Hand-to-Hand
//! Combat, Close Combat Weapons"; Step 0; "Usage Limitations";
//! "Specialisation Bonus"): the weapons' numbers, how drawn rounds go with
//! them, and which of the weapons carried end up in hand.

use crate::systems::gce::warrior::{Damage, Hit};

/// How a close combat weapon settles drawn rounds (Step 4 - Determine
/// Winner): "Spears give a +1 Initiative bonus in the event of draws";
/// "a Warrior with a ‘Uge Choppa always loses draws".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draws {
    /// Initiative decides.
    Initiative,
    /// +1 Initiative in draws.
    Spear,
    /// Always loses draws.
    Loses,
}

/// A close combat weapon as it is used in Hand-to-Hand Combat.
#[derive(Clone, Debug, PartialEq)]
pub struct MeleeWeapon {
    /// Name for messages.
    pub name: String,
    /// "As User" plus this bonus, or a fixed Strength (pistols).
    pub strength: MeleeStrength,
    /// A fixed Save Modifier (pistols: "the only characteristics that
    /// matter for them is their Strength, Save Modifier, and Damage"), or
    /// `None` for the Armour Modifiers table by the strike's Strength.
    pub save_modifier: Option<i32>,
    /// Damage per unsaved strike.
    pub damage: Damage,
    /// Takes both hands.
    pub double_handed: bool,
    /// How it settles draws.
    pub draws: Draws,
    /// A ranged-only weapon: carried, never used, and it denies the
    /// Specialisation Bonus.
    pub ranged_only: bool,
}

/// A close combat weapon's Strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeleeStrength {
    /// "As User" or "AU + X".
    AsUser(i32),
    /// A number (a pistol's Strength).
    Fixed(u8),
}

impl MeleeWeapon {
    fn single(name: &str, strength: MeleeStrength) -> Self {
        MeleeWeapon {
            name: name.into(),
            strength,
            save_modifier: None,
            damage: Damage::fixed(1),
            double_handed: false,
            draws: Draws::Initiative,
            ranged_only: false,
        }
    }

    /// The Knife every warrior counts as carrying ("All Warriors count as
    /// carrying a Knife (or equivalent)"). Reading: the seed gives it no
    /// statline; it strikes at the user's Strength for 1 Damage.
    pub fn knife() -> Self {
        Self::single("knife", MeleeStrength::AsUser(0))
    }

    /// A weapon from the catalogue whose numbers the seed gives, by name.
    pub fn named(name: &str) -> Option<Self> {
        let w = match name {
            "knife" => Self::knife(),
            // "An Ork Boy is base Strength 3 but a Choppa provides +1 for a
            // total of 4." Damage: the seed gives none; 1 ("The majority of
            // weapons only inflict one Damage").
            "choppa" => Self::single("choppa", MeleeStrength::AsUser(1)),
            // 'Uge Choppa: "AU +2 | Var | 1 | ... Double-handed, Opponent
            // wins draws."
            "uge_choppa" => MeleeWeapon {
                double_handed: true,
                draws: Draws::Loses,
                ..Self::single("uge_choppa", MeleeStrength::AsUser(2))
            },
            // Slugga in Hand-to-Hand: "Strength 3 | Save Mod 0 | D 1".
            "slugga" => MeleeWeapon {
                save_modifier: Some(0),
                ..Self::single("slugga", MeleeStrength::Fixed(3))
            },
            // Demilune: "a pole with a chainsword blade at each end. It’s a
            // double-handed weapon". Strength and Damage are not given:
            // as user, 1 (set a custom weapon for other numbers).
            "demilune" => MeleeWeapon {
                double_handed: true,
                ..Self::single("demilune", MeleeStrength::AsUser(0))
            },
            // "Spears give a +1 Initiative bonus in the event of draws".
            "spear" => MeleeWeapon {
                draws: Draws::Spear,
                ..Self::single("spear", MeleeStrength::AsUser(0))
            },
            // Grimgutz: "his Shoota is a ranged weapon, denying him a
            // specialisation bonus"; likewise the seed's other guns.
            "shoota" | "kannon" | "eavy_shoota" | "six_shoota" | "skorcha" => MeleeWeapon {
                ranged_only: true,
                ..Self::single(name, MeleeStrength::AsUser(0))
            },
            _ => return None,
        };
        Some(w)
    }

    /// The strike's Strength for a user of `strength` (capped at 10, the
    /// Wound Chart's last row).
    pub fn strike_strength(&self, user: u8) -> u8 {
        match self.strength {
            MeleeStrength::AsUser(b) => (i32::from(user) + b).clamp(1, 10) as u8,
            MeleeStrength::Fixed(s) => s,
        }
    }

    /// One strike as a hit: "The table below is used to determine Saving
    /// Throw Modifiers based on the Strength of the Model in Close Combat,
    /// including the Weapons Modifiers."
    pub fn hit(&self, user: u8) -> Hit {
        let strength = self.strike_strength(user);
        match self.save_modifier {
            None => Hit::by_strength(strength, self.damage),
            Some(m) => Hit {
                strength,
                save_modifier: Some(m),
                damage: self.damage,
            },
        }
    }
}

/// The weapons a warrior fights with, from what it carries (Step 0 and
/// "Usage Limitations", "Specialisation Bonus").
#[derive(Clone, Debug, PartialEq)]
pub struct Armed {
    /// The weapons in its hands, in the order strikes alternate (the first
    /// takes the odd strike).
    pub in_hand: Vec<MeleeWeapon>,
    /// Extra Attack Dice from the Specialisation Bonus.
    pub bonus_dice: u8,
}

/// Why a warrior's weapons cannot be used as listed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArmsError {
    /// Two double-handed weapons.
    #[error("two double-handed weapons ({0} and {1}): a warrior fights with one at most")]
    TwoDoubleHanded(String, String),
    /// A double-handed weapon and one hand.
    #[error("{0} is double-handed and the warrior has one hand")]
    OneHand(String),
}

crate::variant_enum! {
    /// Which weapons a warrior denied the Specialisation Bonus declares (Step
    /// 0: "each Warrior must declare what weapon(s) they wish to fight with").
    #[derive(Default)]
    pub enum SecondWeapon = "second_weapon" {
        /// A second weapon is declared only with the bonus Attack Dice it
        /// brings: denied the bonus, the warrior fights with the first weapon
        /// it lists alone (Grimgutz "rolls a single Attack Dice" and strikes
        /// with his Choppa; the Knife stays out).
        #[default]
        OnlyWithBonus = "only_with_bonus",
        /// Every weapon in hand is declared and the strikes alternate, bonus or
        /// not.
        Always = "always",
    }
    about: "A warrior denied the Specialisation Bonus (\"Warriors that are carrying any ranged-only weapons cannot receive this bonus\") fights with the first weapon it lists alone ('only_with_bonus': Grimgutz \"rolls a single Attack Dice\" with his Choppa, the Knife stays out) or still alternates every weapon in hand ('always')",
}

impl Armed {
    /// Fills `hands` from `carried` in order: "Warriors can be armed with as
    /// many as they have hands for", a double-handed weapon takes two, a
    /// free hand holds the Knife. "For each additional close combat weapon
    /// they are armed with they may roll an extra Attack Dice", unless they
    /// carry "any ranged-only weapons"; then the first weapon fights alone
    /// ([`SecondWeapon::OnlyWithBonus`]).
    pub fn from_carried(carried: &[MeleeWeapon], hands: u8) -> Result<Armed, ArmsError> {
        Self::declared(carried, hands, SecondWeapon::OnlyWithBonus)
    }

    /// As [`Armed::from_carried`], with the declaration `second` for a
    /// warrior denied the bonus.
    pub fn declared(
        carried: &[MeleeWeapon],
        hands: u8,
        second: SecondWeapon,
    ) -> Result<Armed, ArmsError> {
        let doubles: Vec<&MeleeWeapon> = carried.iter().filter(|w| w.double_handed).collect();
        if doubles.len() >= 2 {
            return Err(ArmsError::TwoDoubleHanded(
                doubles[0].name.clone(),
                doubles[1].name.clone(),
            ));
        }
        if let Some(d) = doubles.first()
            && hands < 2
        {
            return Err(ArmsError::OneHand(d.name.clone()));
        }
        let mut free = hands;
        let mut in_hand = Vec::new();
        for w in carried.iter().filter(|w| !w.ranged_only) {
            let need = if w.double_handed { 2 } else { 1 };
            if need <= free {
                free -= need;
                in_hand.push(w.clone());
            }
        }
        if free > 0 && !in_hand.iter().any(|w| w.name == "knife") {
            in_hand.push(MeleeWeapon::knife());
        }
        let ranged = carried.iter().any(|w| w.ranged_only);
        let bonus_dice = if ranged {
            // "Warriors that are carrying any ranged-only weapons cannot
            // receive this bonus": a second weapon would only swap strikes
            if second == SecondWeapon::OnlyWithBonus {
                in_hand.truncate(1);
            }
            0
        } else {
            in_hand.len().saturating_sub(1) as u8
        };
        Ok(Armed {
            in_hand,
            bonus_dice,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::gce::tables::SEED;
    use crate::systems::seed_text::{available, seed, table_cells};

    #[test]
    fn the_uge_choppa_and_the_slugga_in_hand_to_hand_match_the_seed() {
        if !available(SEED) {
            return;
        }
        // 'Uge Choppa: Range | Hit Modifier | Strength | Save Mod | D | Ammo Roll | Notes
        let c = table_cells(
            SEED,
            "'Uge Choppa\n| Range |",
            "In basic terms there are ranged",
        );
        let c = &c[1..]; // the name
        assert_eq!(
            &c[..7],
            [
                "Range",
                "Hit Modifier",
                "Strength",
                "Save Mod",
                "D",
                "Ammo Roll",
                "Notes"
            ]
        );
        let uge = MeleeWeapon::named("uge_choppa").unwrap();
        let bonus: i32 = c[9]
            .trim_start_matches("AU")
            .replace(' ', "")
            .parse()
            .unwrap();
        assert_eq!(uge.strength, MeleeStrength::AsUser(bonus));
        assert_eq!(c[10], "Var");
        assert_eq!(
            uge.save_modifier, None,
            "Var: by the Armour Modifiers table"
        );
        assert_eq!(uge.damage, Damage::parse(&c[11]).unwrap());
        assert!(c[13].contains("Double-handed") && uge.double_handed);
        assert!(c[13].contains("Opponent wins draws") && uge.draws == Draws::Loses);
        // the Slugga "treated like as if this is its statline"
        let c = table_cells(
            SEED,
            "When used in Hand-to-Hand Combat it is treated like",
            "If a pistol has failed",
        );
        let values = &c[c.len() - 7..];
        let slugga = MeleeWeapon::named("slugga").unwrap();
        assert_eq!(
            slugga.strength,
            MeleeStrength::Fixed(values[2].parse().unwrap())
        );
        assert_eq!(slugga.save_modifier, Some(values[3].parse().unwrap()));
        assert_eq!(slugga.damage, Damage::parse(&values[4]).unwrap());
        // "a Choppa provides +1 for a total of 4"
        assert!(seed(SEED).contains("a Choppa provides +1 for a total of 4"));
        assert_eq!(
            MeleeWeapon::named("choppa").unwrap().strength,
            MeleeStrength::AsUser(1)
        );
    }
}
