//! Ranged fire, written once for every scenario that shoots: the modified
//! to-hit-and-penetrate value, the D20 roll with its unmodified 1 and 20,
//! action points and jams, and the effect of a hit on a figure.

use super::chart::{ApCost, Effect, OnTwenty, RangedRow, effect_of_hit};
use crate::dice::Roller;
use crate::systems::ParamError;

/// RANGED TO HIT MODIFIERS, with the skills that change them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Modifiers {
    /// "Wounded -2".
    pub firer_wounded: bool,
    /// D6 of movement before firing: "moving & Firing -1 per D6".
    pub moved_d6: u32,
    /// "Don't count first -1D6 movement firing from Vehicles".
    pub from_vehicle: bool,
    /// "Target wearing stealth Camoline -1".
    pub camoline: bool,
    /// "Target Moving >3"" -2.
    pub target_moving: bool,
    /// "or Under Cover -2" (one modifier: moving or cover, not both).
    pub target_cover: bool,
    /// "Large Target (tanks normally +2) +1 / +2": 0, 1 or 2.
    pub large: i32,
    /// Marksman: "+2 on all ranged combat to hit dice rolls".
    pub marksman: bool,
    /// Shoot on the Move: "No modifiers for either you or target moving".
    pub shoot_on_the_move: bool,
}

impl Modifiers {
    /// The sum of every modifier that applies.
    pub fn total(&self) -> i32 {
        let mut m = 0;
        if self.firer_wounded {
            m -= 2;
        }
        if !self.shoot_on_the_move {
            let counted = if self.from_vehicle {
                self.moved_d6.saturating_sub(1)
            } else {
                self.moved_d6
            };
            m -= counted as i32;
        }
        if self.camoline {
            m -= 1;
        }
        let moving_counts = self.target_moving && !self.shoot_on_the_move;
        if self.target_cover || moving_counts {
            m -= 2;
        }
        m += self.large;
        if self.marksman {
            m += 2;
        }
        m
    }
}

/// One D20 to hit and penetrate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Roll {
    /// Missed.
    Miss,
    /// "An unmodified roll of 20 is bad, it means the weapon has jammed".
    Jam,
    /// Hit and penetrated; `natural_one` when the die showed 1 (a Necron
    /// destroyed "on a roll of 1 on a D20" never repairs).
    Hit {
        /// The die showed 1.
        natural_one: bool,
    },
}

/// Reads one D20 `roll` against a chart `value` (`None` = X) with
/// `modifier`: "Roll 1D20 and score less than or equal to the figure";
/// "assuming you started with a chance of hitting the target (i.e. not X)
/// then you always get a hit on a 1"; an unmodified 20 jams when `can_jam`
/// (only the firing's own roll: "you still only get one chance of a 20"),
/// and otherwise misses.
pub fn read_d20(roll: u32, value: Option<u8>, modifier: i32, can_jam: bool) -> Roll {
    if roll == 20 {
        return if can_jam { Roll::Jam } else { Roll::Miss };
    }
    let Some(v) = value else {
        return Roll::Miss;
    };
    if roll == 1 || roll as i32 <= i32::from(v) + modifier {
        Roll::Hit {
            natural_one: roll == 1,
        }
    } else {
        Roll::Miss
    }
}

/// What a hit does to a figure, by the kind of figure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Toughness {
    /// A Hero ("multi wound character") reads the Hero column.
    pub hero: bool,
    /// "Necrons, Tyrannids and War Droids of all types are not affected by
    /// Duck Backs at all".
    pub ignores_duck_backs: bool,
    /// Enhanced Nervous system: "Can ignore Duck backs and 1st wound. No
    /// effect at all. 2nd wound still kills as normal."
    pub enhanced_nervous_system: bool,
}

/// One figure's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Figure {
    /// Wounds taken (two kill: "A 2nd wound ... destroys same as anything else").
    pub wounds: u8,
    /// Ducked back this turn.
    pub ducked: bool,
    /// Dead.
    pub dead: bool,
}

impl Figure {
    /// Whether it is wounded (alive, one wound that counts).
    pub fn wounded(&self, t: Toughness) -> bool {
        !self.dead && self.wounds >= 1 && !t.enhanced_nervous_system
    }

    /// Takes `effect`.
    pub fn take(&mut self, effect: Effect, t: Toughness) {
        if self.dead {
            return;
        }
        match effect {
            Effect::DuckBack => {
                if !t.ignores_duck_backs && !t.enhanced_nervous_system {
                    self.ducked = true;
                }
            }
            Effect::Wounded => {
                self.wounds += 1;
                if self.wounds >= 2 {
                    self.dead = true;
                }
            }
            Effect::Dead => self.dead = true,
        }
    }
}

/// Rolls the effect of one hit (D6) for a figure of toughness `t`.
pub fn roll_effect(dice: &mut impl Roller, t: Toughness) -> Effect {
    effect_of_hit(dice.d6() as i32, t.hero)
}

/// The exact law of one hit's effect on a figure of toughness `t`.
pub fn effect_law(hero: bool) -> [(Effect, f64); 3] {
    let mut p = [0.0; 3];
    for roll in 1..=6 {
        p[effect_of_hit(roll, hero) as usize] += 1.0 / 6.0;
    }
    [
        (Effect::DuckBack, p[0]),
        (Effect::Wounded, p[1]),
        (Effect::Dead, p[2]),
    ]
}

/// A firer's action points for one turn and what they buy.
#[derive(Clone, Copy, Debug)]
pub struct Firer {
    /// The weapon's chart row.
    pub row: RangedRow,
    /// Range to the target, inches.
    pub range: u32,
    /// Action points in a turn before any are spent ("Each turn each
    /// character gets 3 action points"; vehicles 4; Veteran Hero +1;
    /// "wounded lose 1AP").
    pub ap: u32,
    /// AP spent moving first (each buys 1D6" and a -1 to hit).
    pub moved_d6: u32,
    /// AP the firer chooses to spend firing (at most 2).
    pub firing_ap: u32,
    /// A 1-AP heavy weapon: its jam "means miss rest of this turn only".
    pub heavy: bool,
    /// AP spent setting up a wheeled or tripod heavy weapon after moving
    /// ("Wheeled/tripod heavy weapons cost 1AP to set up after moving"): 1
    /// when it moved first, else 0.
    pub set_up: u32,
}

/// "No more than 2AP's per turn may be used on firing."
pub const MAX_FIRING_AP: u32 = 2;

impl Firer {
    /// AP for one firing: "1/2 AP weapons use 1AP upto half range and 2AP
    /// above this range".
    pub fn cost(&self) -> u32 {
        match self.row.ap {
            ApCost::One => 1,
            ApCost::Two => 2,
            ApCost::HalfRange => {
                if 2 * self.range <= self.row.max_range {
                    1
                } else {
                    2
                }
            }
        }
    }

    /// AP left for firing after moving and, when the weapon is still
    /// jammed from last turn, unjamming it ("2AP's effort").
    pub fn firing_budget(&self, unjamming: bool) -> u32 {
        let left = self
            .ap
            .saturating_sub(self.moved_d6)
            .saturating_sub(self.set_up)
            .saturating_sub(if unjamming { 2 } else { 0 });
        left.min(self.firing_ap).min(MAX_FIRING_AP)
    }

    /// Firings this turn.
    pub fn shots(&self, unjamming: bool) -> u32 {
        self.firing_budget(unjamming) / self.cost()
    }

    /// After a jam on firing `fired` (1-based) of this turn: whether the
    /// weapon is still jammed at the start of next turn. A jam needs 2 AP
    /// to clear: cleared at once when 2 AP are left this turn, else next
    /// turn's first 2 AP go on it. A 1-AP heavy weapon just misses the rest
    /// of the turn; a weapon lost for good is not "jammed".
    pub fn jam_carries_over(&self, fired: u32, unjamming: bool) -> bool {
        if self.row.on_20 != OnTwenty::Jam || (self.heavy && self.row.ap == ApCost::One) {
            return false;
        }
        let spent =
            self.moved_d6 + self.set_up + if unjamming { 2 } else { 0 } + fired * self.cost();
        self.ap.saturating_sub(spent) < 2
    }

    /// Checks the firer can fire at all: in range, and with AP for one firing.
    pub fn check(&self) -> Result<(), ParamError> {
        if self.range > self.row.max_range {
            return Err(ParamError::new(
                "range",
                format!(
                    "{}\" is beyond the weapon's maximum range of {}\"",
                    self.range, self.row.max_range
                ),
            ));
        }
        if self.moved_d6 > self.ap {
            return Err(ParamError::new(
                "moved_d6",
                format!(
                    "{} D6 of movement cost {} AP, more than the firer's {} AP",
                    self.moved_d6, self.moved_d6, self.ap
                ),
            ));
        }
        if self.shots(false) == 0 {
            return Err(ParamError::new(
                "firing_ap",
                format!(
                    "no AP left to fire: a firing costs {} AP, and {} of the firer's {} AP are left for firing (at most 2){}",
                    self.cost(),
                    self.firing_budget(false),
                    self.ap,
                    if self.set_up > 0 {
                        " after moving and setting up the tripod (1 AP): \"the best a crew can do is to move 2AP's and set it up ready to fire next turn\""
                    } else {
                        ""
                    }
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::skirmish20::chart::parse_ranged_row;

    #[test]
    fn the_seeds_example_to_hit_5_under_cover_drops_to_3() {
        // "So if to hit is 5 and the target is under cover it drops to 3."
        let m = Modifiers {
            target_cover: true,
            ..Default::default()
        };
        assert_eq!(5 + m.total(), 3);
        let hits: Vec<u32> = (1..=20)
            .filter(|&r| matches!(read_d20(r, Some(5), m.total(), true), Roll::Hit { .. }))
            .collect();
        assert_eq!(hits, [1, 2, 3]);
    }

    #[test]
    fn a_one_always_hits_unless_x_and_a_twenty_jams() {
        assert_eq!(
            read_d20(1, Some(2), -6, true),
            Roll::Hit { natural_one: true }
        );
        assert_eq!(read_d20(1, None, 5, true), Roll::Miss);
        assert_eq!(read_d20(20, Some(18), 4, true), Roll::Jam);
        assert_eq!(read_d20(20, Some(18), 4, false), Roll::Miss);
        assert_eq!(
            read_d20(19, Some(18), 1, true),
            Roll::Hit { natural_one: false }
        );
    }

    #[test]
    fn vehicles_ignore_the_first_d6_and_shoot_on_the_move_ignores_moving() {
        let mut m = Modifiers {
            moved_d6: 3,
            from_vehicle: true,
            ..Default::default()
        };
        // "moved for example 3D6 you only deduct -2 not -3"
        assert_eq!(m.total(), -2);
        m.shoot_on_the_move = true;
        m.target_moving = true;
        assert_eq!(m.total(), 0);
        m.target_cover = true;
        assert_eq!(m.total(), -2, "cover still counts");
    }

    #[test]
    fn half_range_weapons_and_jams_cost_what_the_seed_says() {
        let row = parse_ranged_row("24 | 8 | 6 | 4 | 1 | 1/2 | jam", "w").unwrap();
        let mut f = Firer {
            row,
            range: 12,
            ap: 3,
            moved_d6: 0,
            firing_ap: 2,
            heavy: false,
            set_up: 0,
        };
        assert_eq!((f.cost(), f.shots(false)), (1, 2));
        // jam on the first of two shots: 2 AP left, cleared at once
        assert!(!f.jam_carries_over(1, false));
        // jam on the second: 1 AP left, next turn's first 2 AP unjam
        assert!(f.jam_carries_over(2, false));
        assert_eq!(f.shots(true), 1);
        f.range = 13;
        assert_eq!((f.cost(), f.shots(false)), (2, 1));
        assert!(f.jam_carries_over(1, false));
        assert_eq!(f.shots(true), 0, "a 2-AP shot after unjamming: 1 AP left");
    }
}
