//! A warrior's condition as hits land: Wounds left, WS and BS (Flesh
//! Wounds lower them), and whether it stands, is Down or Out of Action.
//! Every way a warrior gets hurt (shots, explosions, fire, falls, and next
//! hand-to-hand strikes and squashing) goes through [`Hit`] and
//! [`Condition::take_hit`]: the Wound Chart, the save, Damage, the Injury
//! Table. A hit's [`Damage`] value lives here with it (weapon statlines,
//! close combat weapons, falls and vehicles all deal one). Recovery from
//! Down lives here too.

use super::tables::{Injury, d3, injury, save_modifier_for_strength, wound_needed};
use crate::dice::Roller;

/// One hit on a warrior: its Strength, what it does to the save, and its
/// Damage (Shooting Steps 3-6; the same for every other source of hits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Strength 1-10 (Wound Chart).
    pub strength: u8,
    /// Modifier to the target's save; `None` when no save is allowed (falls).
    pub save_modifier: Option<i32>,
    /// Damage per unsaved wound.
    pub damage: Damage,
}

impl Hit {
    /// A hit at `strength` whose save modifier is the Armour Modifiers by
    /// Strength table's ("Strength of Hit ... Armour Save Modifier").
    pub fn by_strength(strength: u8, damage: Damage) -> Self {
        Hit {
            strength,
            save_modifier: Some(save_modifier_for_strength(strength)),
            damage,
        }
    }

    /// The D6 score that wounds `toughness`, or `None` when it cannot.
    pub fn wound_target(&self, toughness: u8) -> Option<u32> {
        wound_needed(self.strength, toughness).map(u32::from)
    }

    /// The D6 score that saves against this hit, or `None` when no save is
    /// possible: "It is impossible to make a save if the score required is
    /// greater than 6", and a Warrior with no Armour has none to improve.
    pub fn save_target(&self, save: Option<u8>) -> Option<u32> {
        let need = i32::from(save?) - self.save_modifier?;
        (need <= 6).then_some(need.max(1) as u32)
    }

    /// Steps 3 and 4: the wound roll, then the save. Returns (wounded,
    /// unsaved).
    pub fn wound_and_save(
        &self,
        dice: &mut impl Roller,
        toughness: u8,
        save: Option<u8>,
    ) -> (bool, bool) {
        let Some(needed) = self.wound_target(toughness) else {
            return (false, false);
        };
        if dice.d6() < needed {
            return (false, false);
        }
        let saved = self.save_target(save).is_some_and(|n| dice.d6() >= n);
        (true, !saved)
    }
}

/// A Damage value that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DamageError {
    /// Not a damage value.
    #[error("'{0}' is not a damage value (examples: 1, D3, D6, 2D6, D6+1)")]
    Damage(String),
    /// Damage dice out of range.
    #[error(
        "'{0}' is not a damage value (examples: 1, D3, D6, 2D6, D6+1): use 1-10 dice of D3 or D6"
    )]
    DamageDice(String),
}

/// Damage: "The majority of weapons only inflict one Damage but occasionally
/// something particularly nasty can inflict much more, such as the Krak
/// Stikkbomb’s "D6 Damage"!" (Weapon Statlines, "Damage"). `count` dice of
/// `sides` (3 = D3 read as a halved D6) plus `plus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Damage {
    count: u32,
    sides: u32,
    plus: u32,
}

impl Damage {
    /// `count` D`sides` (3 or 6) plus `plus`.
    pub fn dice(count: u32, sides: u32, plus: u32) -> Self {
        Damage { count, sides, plus }
    }

    /// Fixed damage.
    pub const fn fixed(n: u32) -> Self {
        Damage {
            count: 0,
            sides: 6,
            plus: n,
        }
    }

    /// Parses `1`, `D3`, `D6`, `2D6`, `D6+1`.
    pub fn parse(text: &str) -> Result<Self, DamageError> {
        let t = text.trim().to_ascii_lowercase();
        let bad = || DamageError::Damage(text.to_string());
        let (dice, plus) = match t.split_once('+') {
            Some((d, p)) => (d.trim(), p.trim().parse::<u32>().map_err(|_| bad())?),
            None => (t.as_str(), 0),
        };
        if let Some((n, s)) = dice.split_once('d') {
            let count = if n.is_empty() {
                1
            } else {
                n.parse().map_err(|_| bad())?
            };
            let sides = s.parse().map_err(|_| bad())?;
            if !(1..=10).contains(&count) || !(sides == 3 || sides == 6) {
                return Err(DamageError::DamageDice(text.to_string()));
            }
            Ok(Damage { count, sides, plus })
        } else {
            let n: u32 = dice.parse().map_err(|_| bad())?;
            if n > 20 || plus > 0 {
                return Err(bad());
            }
            Ok(Damage::fixed(n))
        }
    }

    /// The fixed amount, if no dice are rolled.
    pub fn as_fixed(&self) -> Option<u32> {
        (self.count == 0).then_some(self.plus)
    }

    /// How many dice it rolls.
    pub fn dice_count(&self) -> u32 {
        self.count
    }

    /// The most it can deal.
    pub fn max(&self) -> u32 {
        self.count * self.sides + self.plus
    }

    /// The exact law of the damage dealt.
    pub fn law(&self) -> crate::dice::Dist {
        let die = crate::dice::Dist::die(self.sides);
        die.sum_of(self.count)
            .add(&crate::dice::Dist::constant(i64::from(self.plus)))
    }

    /// Rolls the damage.
    pub fn roll(&self, dice: &mut impl Roller) -> u32 {
        let rolled: u32 = (0..self.count)
            .map(|_| if self.sides == 3 { d3(dice) } else { dice.d6() })
            .sum();
        rolled + self.plus
    }
}

/// What one hit did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HitResult {
    /// The wound roll succeeded.
    pub wounded: bool,
    /// ... and the save failed.
    pub unsaved: bool,
    /// Damage dealt.
    pub damage: u32,
}

/// The profile numbers that decide how a warrior takes hits.
#[derive(Clone, Debug, PartialEq)]
pub struct WarriorStats {
    /// Toughness 1-10.
    pub toughness: u8,
    /// Wounds on the profile.
    pub wounds: u8,
    /// Armour save (score needed), if any.
    pub save: Option<u8>,
    /// WS and BS: "so long as both their WS and BS characteristics do not
    /// reach 0" after Flesh Wounds.
    pub ws: u8,
    /// See `ws`.
    pub bs: u8,
    /// Immune to Pinning (drivers, some factions).
    pub pin_immune: bool,
}

impl WarriorStats {
    /// The unhurt condition of a warrior with these stats.
    pub fn fresh(&self) -> Condition {
        Condition::new(self.wounds, self.ws, self.bs)
    }
}

/// A Down warrior left alone rolls in each Recovery Phase "until it stands
/// or goes Out of Action". Rolling until a result is not Down is the same
/// as one roll among the faces that are not Down, each equally likely (a
/// geometric series), so the rule is one die of that many sides: finite,
/// hence exact by enumeration, and cheaper to sample.
fn settling_faces() -> impl Iterator<Item = u32> {
    (1..=6).filter(|&f| injury(f) != Injury::Down)
}

/// Where the warrior stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// Unhurt or still on its feet with wounds left.
    Standing,
    /// On its feet after at least one Flesh Wound.
    FleshWound,
    /// Down.
    Down,
    /// Out of Action.
    OutOfAction,
}

/// A warrior's condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Condition {
    /// Wounds left.
    pub wounds_left: u8,
    /// Weapon Skill.
    pub ws: u8,
    /// Ballistic Skill.
    pub bs: u8,
    /// Standing, Down, Out of Action.
    pub status: Status,
}

impl Condition {
    /// An unhurt warrior.
    pub fn new(wounds: u8, ws: u8, bs: u8) -> Self {
        Condition {
            wounds_left: wounds,
            ws,
            bs,
            status: Status::Standing,
        }
    }

    /// A hit through the whole sequence: wound roll, save, Damage, Injury.
    /// A warrior already Out of Action takes nothing more.
    pub fn take_hit(
        &mut self,
        dice: &mut impl Roller,
        stats: &WarriorStats,
        hit: &Hit,
    ) -> HitResult {
        if self.status == Status::OutOfAction {
            return HitResult::default();
        }
        let (wounded, unsaved) = hit.wound_and_save(dice, stats.toughness, stats.save);
        let damage = if unsaved { hit.damage.roll(dice) } else { 0 };
        self.take_damage(dice, damage);
        HitResult {
            wounded,
            unsaved,
            damage,
        }
    }

    /// Recovery Phase: "Any Warrior who is Down must roll on the Injury
    /// Table ... A result of Flesh Wound lets the Warrior get back in the
    /// fight with a -1 WS and -1 BS penalty ... Down leaves the Warrior face
    /// down and unchanged." One roll.
    pub fn recover(&mut self, dice: &mut impl Roller) {
        if self.status == Status::Down {
            self.apply_recovery(injury(dice.d6()));
        }
    }

    /// Recovery rolls for a Down warrior left alone, until it stands or
    /// goes Out of Action (one roll among the settling faces).
    pub fn recover_until_settled(&mut self, dice: &mut impl Roller) {
        if self.status != Status::Down {
            return;
        }
        let faces: Vec<u32> = settling_faces().collect();
        let face = faces[dice.roll(faces.len() as u32) as usize - 1];
        self.apply_recovery(injury(face));
    }

    fn apply_recovery(&mut self, result: Injury) {
        match result {
            Injury::FleshWound => {
                self.ws = self.ws.saturating_sub(1);
                self.bs = self.bs.saturating_sub(1);
                self.status = if self.ws == 0 && self.bs == 0 {
                    Status::OutOfAction
                } else {
                    self.wounds_left = 1;
                    Status::FleshWound
                };
            }
            Injury::Down => {}
            Injury::OutOfAction => self.status = Status::OutOfAction,
        }
    }

    /// Damage: "each point of Damage removes one Wound ... but never below
    /// zero"; at zero the Warrior rolls for Injury, and "If a Warrior who is
    /// Down suffers additional Wounds then roll on the Injury Table again".
    pub fn take_damage(&mut self, dice: &mut impl Roller, dealt: u32) {
        if dealt == 0 || self.status == Status::OutOfAction {
            return;
        }
        self.wounds_left = self.wounds_left.saturating_sub(dealt.min(255) as u8);
        if self.wounds_left == 0 {
            self.apply_injury(injury(dice.d6()));
        }
    }

    /// Injury Table results. A Flesh Wound leaves the Warrior standing with
    /// one Wound ("treating the Warrior as if they regain a single Wound by
    /// losing WS and BS"), unless WS and BS both reach 0; a Warrior already
    /// Down stays Down on a Flesh Wound (reading: the worse condition holds).
    pub fn apply_injury(&mut self, result: Injury) {
        match result {
            Injury::FleshWound => {
                self.ws = self.ws.saturating_sub(1);
                self.bs = self.bs.saturating_sub(1);
                if self.ws == 0 && self.bs == 0 {
                    self.status = Status::OutOfAction;
                } else if self.status < Status::FleshWound {
                    self.status = Status::FleshWound;
                    self.wounds_left = 1;
                }
            }
            Injury::Down => self.status = self.status.max(Status::Down),
            Injury::OutOfAction => self.status = Status::OutOfAction,
        }
    }

    /// Down or Out of Action.
    pub fn is_down_or_out(&self) -> bool {
        self.status >= Status::Down
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::enumerate;

    #[test]
    fn damage_parses_dice_and_rejects_junk() {
        assert_eq!(Damage::parse("D6").unwrap().as_fixed(), None);
        assert_eq!(Damage::parse("2").unwrap().as_fixed(), Some(2));
        assert!(Damage::parse("d7").is_err());
        assert!(Damage::parse("banana").is_err());
    }

    fn down(ws: u8, bs: u8) -> Condition {
        let mut c = Condition::new(1, ws, bs);
        c.status = Status::Down;
        c
    }

    /// Rolling until settled, truncated after 60 rolls, against the one
    /// roll among settling faces.
    #[test]
    fn settling_roll_equals_rolling_until_settled() {
        for (ws, bs) in [(3, 3), (1, 1), (1, 2)] {
            let one = enumerate(10, |r| {
                let mut c = down(ws, bs);
                c.recover_until_settled(r);
                c
            })
            .unwrap();
            let mut long = 0.0;
            let mut p_down = 1.0;
            for _ in 0..60 {
                let step = enumerate(10, |r| {
                    let mut c = down(ws, bs);
                    c.recover(r);
                    c.status
                })
                .unwrap();
                for (s, p) in step {
                    if s == Status::OutOfAction {
                        long += p_down * p;
                    }
                }
                p_down *= 0.5;
            }
            let out: f64 = one
                .iter()
                .filter(|(c, _)| c.status == Status::OutOfAction)
                .map(|(_, p)| p)
                .sum();
            assert!(
                (out - long).abs() < 1e-15,
                "ws {ws} bs {bs}: {out} vs {long}"
            );
        }
    }

    #[test]
    fn a_hit_needing_more_than_six_to_save_is_unsaveable() {
        let h = Hit {
            strength: 4,
            save_modifier: Some(-2),
            damage: Damage::fixed(1),
        };
        assert_eq!(h.save_target(Some(5)), None);
        assert_eq!(h.save_target(Some(4)), Some(6));
        assert_eq!(h.save_target(None), None);
        let fall = Hit {
            save_modifier: None,
            ..h
        };
        assert_eq!(fall.save_target(Some(2)), None);
    }
}
