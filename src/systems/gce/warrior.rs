//! A warrior's condition as hits land: Wounds left, WS and BS (Flesh
//! Wounds lower them), and whether it stands, is Down or Out of Action.
//! Shooting, fire and falls all injure warriors through this one type.

use super::tables::{Injury, injury};
use crate::dice::Roller;

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
