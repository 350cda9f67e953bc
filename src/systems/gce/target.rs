//! What a shot needs of its target and of the shooter's situation, shared
//! by every GCE scenario that rolls to hit or to save: the Hit Modifiers of
//! Step 2, the victim's profile, the save's score, and Overwatch's
//! modifier under its rule variant.

use crate::systems::Variant;
use crate::systems::gce::warrior::WarriorStats;
use crate::systems::{Opt, ParamError, Params};

pub(super) const TO_HIT: &str = "Shooting, Step 2 – Roll to Hit, Hit Modifiers";

crate::param_struct! {
    /// The hit modifiers of Step 2, shared by shots and thrown grenades.
    pub struct HitModifiers {
        cover: String = choice(&["none", "partial", "in"])
            .default("none")
            .about("the target's cover: none, partial (-1) or in cover (-2)")
            .seed(TO_HIT),
        overwatch: bool = flag()
            .about("firing on Overwatch (+1, or -1 under the 'original' variant)")
            .seed(TO_HIT),
        appearing_or_charging: bool = flag()
            .about("target appearing or charging (-1)")
            .seed(TO_HIT),
        firer_vehicle_moved_fast: bool = flag()
            .about("firing from a vehicle that moved fast (-1)")
            .seed(TO_HIT),
        target_moved_fast: bool = flag()
            .about("target vehicle moved fast (-1)")
            .seed(TO_HIT),
        fast_moving_warrior: bool = flag()
            .about("target is a fast moving warrior (-1)")
            .seed(TO_HIT),
        small_target: bool = flag().about("small target (-1)").seed(TO_HIT),
        large_target: bool = flag().about("large target (+1)").seed(TO_HIT),
        extra_hit_modifier: i64 = int(-10, 10)
            .default("0")
            .about("any other hit modifier the spec adds")
            .seed(TO_HIT),
    }
}

impl HitModifiers {
    /// Hit Modifiers (Step 2 – Roll to Hit): cover -1/-2, Overwatch (by
    /// rule variant), appearing/charging -1, firing from a fast vehicle -1,
    /// target moved fast -1, fast moving warrior -1, small target -1, large
    /// target +1, plus any other modifier the spec adds.
    pub fn total(&self, overwatch_bonus: i32) -> i32 {
        let flag = |set: bool, value: i32| if set { value } else { 0 };
        let cover = match self.cover.as_str() {
            "partial" => -1,
            "in" => -2,
            _ => 0,
        };
        cover
            + flag(self.overwatch, overwatch_bonus)
            + flag(self.appearing_or_charging, -1)
            + flag(self.firer_vehicle_moved_fast, -1)
            + flag(self.target_moved_fast, -1)
            + flag(self.fast_moving_warrior, -1)
            + flag(self.small_target, -1)
            + flag(self.large_target, 1)
            + self.extra_hit_modifier as i32
    }
}

const PROFILE: &str = "Characteristics; Shooting, Steps 3-6; Injuries";

crate::param_struct! {
    /// The warrior taking the hits: Toughness, Wounds, save, WS/BS.
    pub struct VictimParams {
        toughness: i64 = int(1, 10)
            .required()
            .about("the target's Toughness")
            .seed(PROFILE),
        wounds: i64 = int(1, 20)
            .required()
            .about("the target's Wounds")
            .seed(PROFILE),
        save: Opt<i64> = int(0, 7)
            .about("armour save, the score needed (2-6); 0 or absent for none")
            .seed("Shooting, Step 4 – Saving Throws"),
        target_ws: i64 = int(1, 10)
            .required()
            .about("the target's WS, for Flesh Wounds")
            .seed("Injuries"),
        target_bs: i64 = int(1, 10)
            .required()
            .about("the target's BS, for Flesh Wounds")
            .seed("Injuries"),
        pin_immune: bool = flag()
            .about("immune to Pinning (drivers, some factions)")
            .seed("Pinning"),
    }
}

impl VictimParams {
    /// The warrior's profile.
    pub fn stats(&self) -> Result<WarriorStats, ParamError> {
        Ok(WarriorStats {
            toughness: self.toughness as u8,
            wounds: self.wounds as u8,
            save: save_value(&self.save)?,
            ws: self.target_ws as u8,
            bs: self.target_bs as u8,
            pin_immune: self.pin_immune,
        })
    }
}

crate::variant_enum! {
    /// The Overwatch hit modifier (variant `overwatch`).
    pub enum Overwatch = "overwatch" {
        /// The v1.4 changelog: "Buffed Overwatch to give +1 to hit rather
        /// than -1".
        Current = "current",
        /// The body text before it: -1.
        Original = "original",
    }
    about: "Overwatch hit modifier: 'current' +1 (v1.4 changelog: \"Buffed Overwatch to give +1 to hit rather than -1\"), 'original' -1",
}

/// The Overwatch hit modifier under the chosen rule variant.
pub fn overwatch_bonus(variants: &Params) -> Result<i32, ParamError> {
    Ok(match Overwatch::read(variants)? {
        Overwatch::Original => -1,
        Overwatch::Current => 1,
    })
}

/// A save as the score needed (2-6), 0 or absent for none.
pub fn save_value(save: &Opt<i64>) -> Result<Option<u8>, ParamError> {
    match save.value {
        Some(0) | Some(7) | None => Ok(None),
        Some(1) => Err(ParamError::new(
            save.name(),
            "a 1+ save is impossible: use 2 to 6 (the score needed), or 0 for none",
        )),
        Some(v) => Ok(Some(v as u8)),
    }
}
