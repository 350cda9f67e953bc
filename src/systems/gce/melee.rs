//! Hand-to-Hand Combat (seed: "Hand-to-Hand Combat", Steps 0-11; "Multiple
//! Combats"; "Downed Warriors and Multiple Combatant Situations"; "Special
//! rules: Psychology").
//!
//! A round reads only each side's highest Attack Dice, its sixes and its
//! ones, so the dice are drawn as [`Extremes`]: real dice under the sampler,
//! the closed-form law under the exact evaluator. Strikes go through the one
//! hit pipeline ([`Condition::take_hit`]), one strike per sub-step so equal
//! states merge between strikes.

use super::tables::leadership_test;
use super::warrior::{Condition, Hit, Status, WarriorStats};
use super::weapon::Damage;
use crate::dice::{
    Extremes, LawCache, Metric, MetricSink, Replay, Roller, StateDist, extremes_law,
};
use crate::engine::repeat_model::{RepeatModel, Repeated, round_metrics};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::{MetricDecl, MetricList};

/// Faces of an Attack Dice.
const D6: u32 = 6;

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

/// Which weapons a warrior denied the Specialisation Bonus declares (Step
/// 0: "each Warrior must declare what weapon(s) they wish to fight with").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SecondWeapon {
    /// A second weapon is declared only with the bonus Attack Dice it
    /// brings: denied the bonus, the warrior fights with the first weapon
    /// it lists alone (Grimgutz "rolls a single Attack Dice" and strikes
    /// with his Choppa; the Knife stays out).
    #[default]
    OnlyWithBonus,
    /// Every weapon in hand is declared and the strikes alternate, bonus or
    /// not.
    Always,
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
    fn draw_initiative(&self) -> Option<u8> {
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
    fn test_leadership(&self) -> u8 {
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
    fn fails_stupidity(&self, dice: &mut impl Roller) -> bool {
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
    fn dread_of(&self, other: &Fighter, restricted: bool) -> Option<Causes> {
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
    fn ws(self, ws: u8) -> u8 {
        match self {
            Nerve::Steady => ws,
            Nerve::Afraid => ws.div_ceil(2),
            Nerve::Terrified => 0,
        }
    }
}

/// Who won a round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// Not decided yet (or no round was fought).
    #[default]
    Pending,
    /// The first side won.
    A,
    /// The second side won.
    B,
    /// Same score and same Initiative.
    Stalemate,
}

/// The score a side brings to a round, before its own dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Side {
    ws: u8,
    modifier: i32,
}

/// Combat score: "Weapon Skill (WS) + Highest Attack Dice Roll +/-
/// Modifiers", with Critical Blows ("Each roll of a 6 on an Attack Dice,
/// excluding the first, gives a +1 bonus") and Opponent Fumbles ("Each 1
/// your opponent rolls ... gives your Warrior a +1 Modifier").
fn combat_score(side: Side, own: Extremes, theirs: Extremes) -> i32 {
    i32::from(side.ws)
        + i32::from(own.highest)
        + i32::from(own.tops.saturating_sub(1))
        + i32::from(theirs.ones)
        + side.modifier
}

/// The draw rule between two warriors: who wins a drawn round.
pub(in crate::systems::gce) fn draw_winner(a: &Fighter, b: &Fighter) -> Outcome {
    match (a.draw_initiative(), b.draw_initiative()) {
        (None, None) => by_initiative(a.initiative, b.initiative),
        (None, Some(_)) => Outcome::B,
        (Some(_), None) => Outcome::A,
        (Some(x), Some(y)) => by_initiative(x, y),
    }
}

fn by_initiative(x: u8, y: u8) -> Outcome {
    match x.cmp(&y) {
        std::cmp::Ordering::Greater => Outcome::A,
        std::cmp::Ordering::Less => Outcome::B,
        std::cmp::Ordering::Equal => Outcome::Stalemate,
    }
}

/// Step 4 and 5: the winner and its strikes ("If it was a resolved draw
/// (and not a stalemate) then it’s only a single Hit").
fn decide(a_score: i32, b_score: i32, on_draw: Outcome) -> (Outcome, u8) {
    match a_score.cmp(&b_score) {
        std::cmp::Ordering::Greater => (Outcome::A, (a_score - b_score) as u8),
        std::cmp::Ordering::Less => (Outcome::B, (b_score - a_score) as u8),
        std::cmp::Ordering::Equal => match on_draw {
            Outcome::Stalemate => (Outcome::Stalemate, 0),
            w => (w, 1),
        },
    }
}

/// Strike number `k` (from 0) of `winner` on `loser`: "If two weapons were
/// used, you must split and alternate the Hits. Crucially, with an odd
/// number of strikes the winner picks how they alternate." Reading: the
/// weapon listed first strikes first, so it takes the odd strike.
/// `down_is_out`: "if a Warrior goes Down they go Out of Action
/// immediately" (one-on-one on foot).
fn strike(
    dice: &mut impl Roller,
    k: u8,
    winner: &Fighter,
    loser: &Fighter,
    loser_now: &mut Condition,
    down_is_out: bool,
) {
    let weapons = &winner.armed.in_hand;
    let w = &weapons[usize::from(k) % weapons.len()];
    loser_now.take_hit(dice, &loser.stats, &w.hit(winner.strength));
    if down_is_out && loser_now.status == Status::Down {
        loser_now.status = Status::OutOfAction;
    }
}

/// A round's strikes on the loser, all at once: the sampler strikes with
/// real dice; the exact evaluator draws the loser's condition from the law
/// of `strikes` strikes on it, computed once per (winner, strikes,
/// condition) by running [`strike`] under [`StateDist`].
pub(in crate::systems::gce) struct StrikeLaws {
    rounds: LawCache<(bool, u8, Condition), Condition>,
    /// One strike's law by (side, weapon, condition).
    single: std::sync::Mutex<std::collections::BTreeMap<StrikeKey, Vec<(Condition, f64)>>>,
}

/// Which side strikes, with which weapon, on a warrior in which condition.
type StrikeKey = (bool, u8, Condition);

impl StrikeLaws {
    pub(in crate::systems::gce) fn new() -> Self {
        StrikeLaws {
            rounds: LawCache::new(),
            single: Default::default(),
        }
    }

    /// The loser's condition after `strikes` strikes by `winner` (`first`
    /// says which side won, for the cache).
    #[allow(clippy::too_many_arguments)]
    pub(in crate::systems::gce) fn land(
        &self,
        dice: &mut impl Roller,
        first: bool,
        strikes: u8,
        winner: &Fighter,
        loser: &Fighter,
        now: Condition,
        down_is_out: bool,
    ) -> Condition {
        if strikes == 0 || now.status == Status::OutOfAction {
            return now;
        }
        let weapons = winner.armed.in_hand.len();
        self.rounds.draw(
            dice,
            (first, strikes, now),
            || {
                // strike by strike, each strike's law computed once per
                // (weapon, condition) by enumerating the hit pipeline
                let mut single = self.single.lock().unwrap_or_else(|p| p.into_inner());
                let mut law = std::collections::BTreeMap::from([(now, 1.0)]);
                for k in 0..strikes {
                    let w = (usize::from(k) % weapons) as u8;
                    let mut next = std::collections::BTreeMap::new();
                    for (c, p) in law {
                        let one = single.entry((first, w, c)).or_insert_with(|| {
                            StateDist::certain(c)
                                .step(STRIKE_PATHS, |r: &mut Replay, c| {
                                    strike(r, w, winner, loser, c, down_is_out)
                                })
                                .expect("hand-to-hand Damage is limited to what enumerates")
                                .iter()
                                .map(|(c, p)| (*c, p))
                                .collect()
                        });
                        for (c2, q) in one.iter() {
                            *next.entry(*c2).or_insert(0.0) += p * q;
                        }
                    }
                    law = next;
                }
                law.into_iter().collect()
            },
            |d| {
                let mut c = now;
                for k in 0..strikes {
                    strike(d, k, winner, loser, &mut c, down_is_out);
                }
                c
            },
        )
    }
}

/// Both pools rolled and compared at once: the sampler rolls both pools;
/// the exact evaluator draws (winner, strikes) from their law, computed
/// once per (edge, dice, dice) from the pools' closed-form laws. `edge` is
/// the first side's Weapon Skill and modifiers less the second's.
pub(in crate::systems::gce) struct ClashLaws {
    laws: Laws,
    clashes: LawCache<(i32, u8, u8), (Outcome, u8)>,
}

impl ClashLaws {
    pub(in crate::systems::gce) fn up_to(dice: u8) -> Self {
        ClashLaws {
            laws: Laws::up_to(dice),
            clashes: LawCache::new(),
        }
    }

    pub(in crate::systems::gce) fn clash(
        &self,
        dice: &mut impl Roller,
        edge: i32,
        na: u8,
        nb: u8,
        on_draw: Outcome,
    ) -> (Outcome, u8) {
        let settle =
            |a: Extremes, b: Extremes| decide(edge + margin_of(a) - margin_of(b), 0, on_draw);
        self.clashes.draw(
            dice,
            (edge, na, nb),
            || {
                let mut law = std::collections::BTreeMap::new();
                for (a, p) in self.laws.of(na) {
                    for (b, q) in self.laws.of(nb) {
                        *law.entry(settle(*a, *b)).or_insert(0.0) += p * q;
                    }
                }
                law.into_iter().collect()
            },
            |d| {
                let a = Extremes::roll(d, na, D6);
                let b = Extremes::roll(d, nb, D6);
                settle(a, b)
            },
        )
    }
}

/// Dice paths one strike may take under the exact evaluator: wound, save,
/// Damage dice, Injury.
const STRIKE_PATHS: usize = 1 << 16;

/// Most Damage dice a hand-to-hand weapon may roll (a strike's dice then
/// enumerate within [`STRIKE_PATHS`]).
pub const MAX_DAMAGE_DICE: u32 = 3;

/// What a Hating warrior re-rolls of its pool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reroll {
    /// Ones re-rolled.
    pub ones: u8,
    /// Dice between 1 and 6 re-rolled, not counting the highest one.
    pub middles: u8,
    /// The highest die too (only with every other die below 6).
    pub highest: bool,
    /// Every die, sixes included.
    pub all: bool,
}

impl Reroll {
    /// How many dice go back in the cup.
    fn count(self, e: Extremes) -> u8 {
        if self.all {
            e.dice
        } else {
            self.ones + self.middles + u8::from(self.highest)
        }
    }

    /// The dice kept.
    fn kept(self, e: Extremes) -> Extremes {
        if self.all {
            return Extremes::default();
        }
        let n = e.dice - self.count(e);
        let ones = e.ones - self.ones;
        // a six, or the highest die between, stays
        let highest = if e.tops > 0 || (e.middles() > 0 && !self.highest) {
            e.highest
        } else if ones > 0 {
            1
        } else {
            0
        };
        Extremes {
            dice: n,
            highest,
            tops: e.tops,
            ones,
        }
    }

    /// Every re-roll worth considering for `e`: ones are all or none (a
    /// re-rolled 1 can only do better), sixes never (except `all`), any
    /// number of the dice between, keeping the highest unless all of them
    /// go. Reading: re-rolling the highest die while keeping lower ones
    /// would need the second-highest face, which the summary drops; `best`
    /// chooses among the others.
    fn candidates(e: Extremes) -> Vec<Reroll> {
        let mut out = Vec::new();
        let m = e.middles();
        let spare = if e.tops > 0 { m } else { m.saturating_sub(1) };
        for ones in [0, e.ones] {
            for middles in 0..=spare {
                out.push(Reroll {
                    ones,
                    middles,
                    ..Reroll::default()
                });
            }
            if e.tops == 0 && m > 0 {
                out.push(Reroll {
                    ones,
                    middles: spare,
                    highest: true,
                    all: false,
                });
            }
            if e.ones == 0 {
                break;
            }
        }
        out
    }
}

/// Exact laws of the extremes of `0..=max` Attack Dice.
#[derive(Clone, Debug)]
struct Laws(Vec<Vec<(Extremes, f64)>>);

impl Laws {
    fn up_to(max: u8) -> Self {
        Laws((0..=max).map(|n| extremes_law(n, D6)).collect())
    }

    fn of(&self, n: u8) -> &[(Extremes, f64)] {
        &self.0[usize::from(n)]
    }

    fn draw(&self, dice: &mut impl Roller, n: u8) -> Extremes {
        Extremes::draw(dice, self.of(n), n, D6)
    }
}

/// A side's margin from its own dice: its highest, its criticals, less its
/// fumbles (each gives the opponent +1).
fn margin_of(e: Extremes) -> i32 {
    i32::from(e.highest) + i32::from(e.tops.saturating_sub(1)) - i32::from(e.ones)
}

/// P(the margin `gap + margin_of(kept + fresh)` wins), `wins_draws` for 0.
fn p_win_after(laws: &Laws, r: Reroll, e: Extremes, gap: i32, wins_draws: bool) -> f64 {
    let kept = r.kept(e);
    laws.of(r.count(e))
        .iter()
        .filter(|(fresh, _)| {
            let m = gap + margin_of(kept.merge(*fresh));
            m > 0 || (m == 0 && wins_draws)
        })
        .map(|(_, p)| p)
        .sum()
}

/// The re-roll a policy makes for pool `e`, `gap` being the side's score
/// less the opponent's, not counting `margin_of(e)`.
fn choose_reroll(
    laws: &Laws,
    policy: HatredPolicy,
    e: Extremes,
    gap: i32,
    wins_draws: bool,
) -> Reroll {
    match policy {
        HatredPolicy::None => Reroll::default(),
        HatredPolicy::Ones => Reroll {
            ones: e.ones,
            ..Reroll::default()
        },
        HatredPolicy::AllWhenBehind => {
            let m = gap + margin_of(e);
            if m < 0 || (m == 0 && !wins_draws) {
                Reroll {
                    all: true,
                    ..Reroll::default()
                }
            } else {
                Reroll::default()
            }
        }
        HatredPolicy::Best => {
            let mut best = (f64::NEG_INFINITY, Reroll::default());
            for r in Reroll::candidates(e) {
                let p = p_win_after(laws, r, e, gap, wins_draws);
                // strictly better by more than rounding: fewer re-rolls win ties
                if p > best.0 + 1e-12 {
                    best = (p, r);
                }
            }
            best.1
        }
    }
}

/// One-on-one combat between two warriors on foot, round after round until
/// one is Out of Action.
#[derive(Clone, Debug)]
pub struct Duel {
    /// The first warrior.
    pub a: Fighter,
    /// The second warrior.
    pub b: Fighter,
    /// Who charged, if anyone (+1 in the first round; Fear tests).
    pub charger: Option<Outcome>,
    /// The charger crossed an obstacle (-1 in the first round).
    pub obstacle: bool,
}

/// The state of a duel.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fight {
    a: Condition,
    b: Condition,
    /// The first round has been fought.
    later: bool,
    a_nerve: Nerve,
    b_nerve: Nerve,
    /// The charger failed its Fear test: no combat.
    charge_failed: bool,
    // within a round
    a_dazed: bool,
    b_dazed: bool,
    a_roll: Extremes,
    b_roll: Extremes,
    winner: Outcome,
    strikes: u8,
}

impl Fight {
    /// The round's winner and its strikes (until the round ends).
    pub fn round_result(&self) -> (Outcome, u8) {
        (self.winner, self.strikes)
    }

    /// Both pools as rolled (until the round ends).
    pub fn rolls(&self) -> (Extremes, Extremes) {
        (self.a_roll, self.b_roll)
    }

    /// The first warrior's condition.
    pub fn a(&self) -> Condition {
        self.a
    }

    /// The second warrior's condition.
    pub fn b(&self) -> Condition {
        self.b
    }
}

/// Sub-steps before the strikes: psychology, A's dice, B's dice (and the
/// winner, when nobody may re-roll), Hatred's re-rolls and the winner.
/// Deciding as soon as the dice allow keeps the exact evaluator's states
/// few: the pools never outlive the sub-step that reads them.
const BEFORE_STRIKES: usize = 4;

impl Duel {
    fn modifier(&self, who: Outcome, first: bool) -> i32 {
        let f = if who == Outcome::A { &self.a } else { &self.b };
        let charging = first && self.charger == Some(who);
        f.modifier + f.higher_up_bonus(first) + i32::from(charging)
            - i32::from(charging && self.obstacle)
    }

    fn side(&self, who: Outcome, s: &Fight) -> Side {
        let (c, nerve) = match who {
            Outcome::A => (&s.a, s.a_nerve),
            _ => (&s.b, s.b_nerve),
        };
        Side {
            ws: nerve.ws(c.ws),
            modifier: self.modifier(who, !s.later),
        }
    }

    /// The most strikes one round can deal: the largest score difference.
    pub fn max_strikes(&self) -> u8 {
        let most = |f: &Fighter, other: &Fighter, who: Outcome| -> i32 {
            let n = i32::from(f.attack_dice());
            i32::from(f.stats.ws)
                + 6
                + (n - 1).max(0)
                + i32::from(other.attack_dice())
                + self.modifier(who, true).max(self.modifier(who, false))
        };
        let least = |f: &Fighter, who: Outcome| -> i32 {
            self.modifier(who, true).min(self.modifier(who, false)) - i32::from(f.attack_dice())
        };
        let ab = most(&self.a, &self.b, Outcome::A) - least(&self.b, Outcome::B);
        let ba = most(&self.b, &self.a, Outcome::B) - least(&self.a, Outcome::A);
        ab.max(ba).clamp(1, 255) as u8
    }

    /// Most Attack Dice either side can roll.
    fn max_dice(&self) -> u8 {
        self.a.attack_dice().max(self.b.attack_dice())
    }

    /// Whether either warrior can ever hurt the other (else the fight never
    /// ends).
    pub fn can_end(&self) -> bool {
        let hurts = |x: &Fighter, y: &Fighter| {
            x.armed.in_hand.iter().any(|w| {
                let h = w.hit(x.strength);
                h.wound_target(y.stats.toughness).is_some() && h.damage.max() > 0
            })
        };
        hurts(&self.a, &self.b) || hurts(&self.b, &self.a)
    }

    fn start(&self) -> Fight {
        Fight {
            a: self.a.stats.fresh(),
            b: self.b.stats.fresh(),
            later: false,
            a_nerve: Nerve::Steady,
            b_nerve: Nerve::Steady,
            charge_failed: false,
            a_dazed: false,
            b_dazed: false,
            a_roll: Extremes::default(),
            b_roll: Extremes::default(),
            winner: Outcome::Pending,
            strikes: 0,
        }
    }

    /// The charge's Fear and Terror tests ("Charging an opponent that causes
    /// Fear ... Failing results in the Warrior standing still"; "Being
    /// Charged by an opponent that causes Fear ... if not they fight as if
    /// their Weapon Skill was halved"; Terror: "they will count as having
    /// Weapon Skill 0"). Reading: the effect lasts the whole combat.
    /// `restricted` says which side failed its Stupidity test this turn
    /// (A, B).
    fn psychology(&self, dice: &mut impl Roller, s: &mut Fight, restricted: (bool, bool)) {
        let Some(charger) = self.charger else {
            return;
        };
        let (chg, tgt, chg_r, tgt_r) = match charger {
            Outcome::A => (&self.a, &self.b, restricted.0, restricted.1),
            _ => (&self.b, &self.a, restricted.1, restricted.0),
        };
        if chg.dread_of(tgt, chg_r).is_some()
            && !leadership_test(dice, u32::from(chg.test_leadership()))
        {
            s.charge_failed = true;
            return;
        }
        if let Some(c) = tgt.dread_of(chg, tgt_r)
            && !leadership_test(dice, u32::from(tgt.test_leadership()))
        {
            let nerve = if c == Causes::Terror {
                Nerve::Terrified
            } else {
                Nerve::Afraid
            };
            match charger {
                Outcome::A => s.b_nerve = nerve,
                _ => s.a_nerve = nerve,
            }
        }
    }

    /// Hatred: "For the first turn of combat against a Hated enemy a
    /// Warrior affected by Hatred may choose to reroll their Attack Dice
    /// (individual dice or all of them). The second result stands." Both
    /// sides decide on both first rolls, then re-roll.
    fn hatred(&self, dice: &mut impl Roller, laws: &Laws, s: &mut Fight) {
        if s.later {
            return;
        }
        let on_draw = draw_winner(&self.a, &self.b);
        let (fa, fb) = (self.fixed(Outcome::A, s), self.fixed(Outcome::B, s));
        let choice_a = self.a.hating().map(|p| {
            let gap = fa - fb - margin_of(s.b_roll);
            choose_reroll(laws, p, s.a_roll, gap, on_draw == Outcome::A)
        });
        let choice_b = self.b.hating().map(|p| {
            let gap = fb - fa - margin_of(s.a_roll);
            choose_reroll(laws, p, s.b_roll, gap, on_draw == Outcome::B)
        });
        if let Some(r) = choice_a {
            s.a_roll = r.kept(s.a_roll).merge(laws.draw(dice, r.count(s.a_roll)));
        }
        if let Some(r) = choice_b {
            s.b_roll = r.kept(s.b_roll).merge(laws.draw(dice, r.count(s.b_roll)));
        }
    }

    /// A side's Weapon Skill and modifiers this round.
    fn fixed(&self, who: Outcome, s: &Fight) -> i32 {
        let side = self.side(who, s);
        i32::from(side.ws) + side.modifier
    }

    /// Whether a Hating warrior may re-roll this round.
    fn rerolls(&self, s: &Fight) -> bool {
        !s.later && (self.a.hating().is_some() || self.b.hating().is_some())
    }

    /// Steps 3-5: scores, winner, strikes; the pools are then forgotten.
    fn resolve(&self, s: &mut Fight) {
        let a = combat_score(self.side(Outcome::A, s), s.a_roll, s.b_roll);
        let b = combat_score(self.side(Outcome::B, s), s.b_roll, s.a_roll);
        let (winner, strikes) = decide(a, b, draw_winner(&self.a, &self.b));
        s.winner = winner;
        s.strikes = strikes;
        s.a_roll = Extremes::default();
        s.b_roll = Extremes::default();
        s.a_dazed = false;
        s.b_dazed = false;
    }
}

/// Every metric of the duel scenario (besides the rounds).
pub const DUEL_METRICS: [MetricDecl; 17] = [
    MetricDecl::probability(
        "p_a_wins",
        "P(A takes B out of action)",
        "P(B is Out of Action when the fight ends)",
    ),
    MetricDecl::probability(
        "p_b_wins",
        "P(B takes A out of action)",
        "P(A is Out of Action when the fight ends)",
    ),
    MetricDecl::probability(
        "p_charge_failed",
        "P(charge fails)",
        "P(the charger fails its Fear test and stands still: no combat)",
    ),
    MetricDecl::probability(
        "p_a_unhurt",
        "P(A ends unhurt)",
        "P(A ends the fight with every Wound and no Flesh Wound)",
    ),
    MetricDecl::probability(
        "p_a_flesh_wounded",
        "P(A ends with a flesh wound)",
        "P(A ends the fight on its feet after at least one Flesh Wound)",
    ),
    MetricDecl::mean(
        "mean_a_wounds_left",
        "mean Wounds A has left",
        "A's expected Wounds at the end (0 when Out of Action)",
    ),
    MetricDecl::probability(
        "p_b_unhurt",
        "P(B ends unhurt)",
        "P(B ends the fight with every Wound and no Flesh Wound)",
    ),
    MetricDecl::probability(
        "p_b_flesh_wounded",
        "P(B ends with a flesh wound)",
        "P(B ends the fight on its feet after at least one Flesh Wound)",
    ),
    MetricDecl::mean(
        "mean_b_wounds_left",
        "mean Wounds B has left",
        "B's expected Wounds at the end (0 when Out of Action)",
    ),
    MetricDecl::probability(
        "p_a_wins_first_round",
        "P(A wins round 1)",
        "P(A wins the first round of combat)",
    ),
    MetricDecl::probability(
        "p_b_wins_first_round",
        "P(B wins round 1)",
        "P(B wins the first round of combat)",
    ),
    MetricDecl::probability(
        "p_stalemate_first_round",
        "P(stalemate in round 1)",
        "P(equal scores and equal Initiative in the first round)",
    ),
    MetricDecl::probability(
        "p_b_out_first_round",
        "P(B out of action in round 1)",
        "P(B is Out of Action after the first round)",
    ),
    MetricDecl::probability(
        "p_a_out_first_round",
        "P(A out of action in round 1)",
        "P(A is Out of Action after the first round)",
    ),
    MetricDecl::probability(
        "a_strikes_first_round={k}",
        "P(A strikes {k} times in round 1)",
        "P(A wins the first round with exactly k strikes; 0 when it does not win)",
    ),
    MetricDecl::probability(
        "b_strikes_first_round={k}",
        "P(B strikes {k} times in round 1)",
        "P(B wins the first round with exactly k strikes; 0 when it does not win)",
    ),
    MetricDecl::mean(
        "mean_a_strikes_first_round",
        "mean strikes by A in round 1",
        "A's expected strikes in the first round (0 when it does not win)",
    ),
];

/// The duel's catalogue with the rounds metrics.
pub fn duel_metric_catalog() -> Vec<MetricDecl> {
    DUEL_METRICS
        .into_iter()
        .chain(round_metrics(DuelRule::ROUND))
        .collect()
}

/// Rounds reported one by one (then "not over after").
const ROUNDS_SHOWN: usize = 12;

/// The duel with its metric handles and dice laws.
pub struct DuelRule {
    duel: Duel,
    clashes: ClashLaws,
    strike_laws: StrikeLaws,
    max_strikes: u8,
    list: MetricList,
    m: DuelMetrics,
}

struct DuelMetrics {
    a_wins: Metric,
    b_wins: Metric,
    charge_failed: Metric,
    a_unhurt: Metric,
    a_flesh: Metric,
    a_wounds: Metric,
    b_unhurt: Metric,
    b_flesh: Metric,
    b_wounds: Metric,
    a_first: Metric,
    b_first: Metric,
    stalemate_first: Metric,
    b_out_first: Metric,
    a_out_first: Metric,
    a_strikes: Vec<Metric>,
    b_strikes: Vec<Metric>,
    mean_a_strikes: Metric,
}

impl Duel {
    /// The duel's model: rounds until one warrior is Out of Action.
    pub fn into_model(self) -> DuelModel {
        let max_strikes = self.max_strikes();
        let mut list = MetricList::new();
        let d = &DUEL_METRICS;
        let m = DuelMetrics {
            a_wins: list.add(&d[0]),
            b_wins: list.add(&d[1]),
            charge_failed: list.add(&d[2]),
            a_unhurt: list.add(&d[3]),
            a_flesh: list.add(&d[4]),
            a_wounds: list.add(&d[5]),
            b_unhurt: list.add(&d[6]),
            b_flesh: list.add(&d[7]),
            b_wounds: list.add(&d[8]),
            a_first: list.add(&d[9]),
            b_first: list.add(&d[10]),
            stalemate_first: list.add(&d[11]),
            b_out_first: list.add(&d[12]),
            a_out_first: list.add(&d[13]),
            a_strikes: list.family(&d[14], 0..=max_strikes),
            b_strikes: list.family(&d[15], 0..=max_strikes),
            mean_a_strikes: list.add(&d[16]),
        };
        let clashes = ClashLaws::up_to(self.max_dice());
        RepeatModel::new(
            DuelRule {
                duel: self,
                clashes,
                strike_laws: StrikeLaws::new(),
                max_strikes,
                list,
                m,
            },
            ROUNDS_SHOWN,
        )
    }
}

/// The duel's model: the chain of rounds, exact by [`RepeatModel`]'s
/// solver and sampled by the engine a round at a time, each round one draw
/// from its exact law ([`Model::run_reference`] plays it on real dice).
pub type DuelModel = RepeatModel<DuelRule>;

impl DuelRule {
    /// The duel.
    pub fn duel(&self) -> &Duel {
        &self.duel
    }
}

fn unhurt(c: &Condition, stats: &WarriorStats) -> bool {
    c.status == Status::Standing && c.wounds_left == stats.wounds
}

impl Repeated for DuelRule {
    type State = Fight;

    const ROUND: &'static str = "rounds";

    fn start(&self) -> Fight {
        self.duel.start()
    }

    fn over(&self, s: &Fight) -> bool {
        s.charge_failed || s.a.status == Status::OutOfAction || s.b.status == Status::OutOfAction
    }

    fn sub_steps(&self) -> usize {
        BEFORE_STRIKES + 1
    }

    fn sub_step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut Fight) {
        let d = &self.duel;
        if s.charge_failed {
            return;
        }
        match i {
            0 => {
                // Stupidity's Leadership test at the start of the turn
                // (reading: one test before every round), then the
                // charge's Fear and Terror tests in the first round.
                let restricted = (d.a.fails_stupidity(dice), d.b.fails_stupidity(dice));
                if !s.later {
                    d.psychology(dice, s, restricted);
                }
                if s.charge_failed {
                    return;
                }
                // Restricted: "At the start of each Hand-to-Hand Combat
                // Phase a Warrior suffering from Stupidity must roll a D6
                // ... on a 1 - 3 they instead roll no Attack Dice."
                s.a_dazed = restricted.0 && dice.d6() <= 3;
                s.b_dazed = restricted.1 && dice.d6() <= 3;
            }
            1 => {
                let na = if s.a_dazed { 0 } else { d.a.attack_dice() };
                if d.rerolls(s) {
                    s.a_roll = self.clashes.laws.draw(dice, na);
                } else {
                    let nb = if s.b_dazed { 0 } else { d.b.attack_dice() };
                    let edge = d.fixed(Outcome::A, s) - d.fixed(Outcome::B, s);
                    let on_draw = draw_winner(&d.a, &d.b);
                    (s.winner, s.strikes) = self.clashes.clash(dice, edge, na, nb, on_draw);
                    s.a_dazed = false;
                    s.b_dazed = false;
                }
            }
            2 => {
                if d.rerolls(s) {
                    let n = if s.b_dazed { 0 } else { d.b.attack_dice() };
                    s.b_roll = self.clashes.laws.draw(dice, n);
                }
            }
            3 => {
                if d.rerolls(s) {
                    d.hatred(dice, &self.clashes.laws, s);
                    d.resolve(s);
                }
            }
            _ => {
                let (strikes, laws) = (s.strikes, &self.strike_laws);
                match s.winner {
                    Outcome::A => s.b = laws.land(dice, true, strikes, &d.a, &d.b, s.b, true),
                    Outcome::B => s.a = laws.land(dice, false, strikes, &d.b, &d.a, s.a, true),
                    _ => {}
                }
            }
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &Fight, sink: &mut impl MetricSink) {
        let m = &self.m;
        let (a, b) = (&self.duel.a.stats, &self.duel.b.stats);
        sink.record(m.a_wins, u64::from(s.b.status == Status::OutOfAction));
        sink.record(m.b_wins, u64::from(s.a.status == Status::OutOfAction));
        sink.record(m.charge_failed, u64::from(s.charge_failed));
        sink.record(m.a_unhurt, u64::from(unhurt(&s.a, a)));
        sink.record(m.a_flesh, u64::from(s.a.status == Status::FleshWound));
        sink.record(m.b_unhurt, u64::from(unhurt(&s.b, b)));
        sink.record(m.b_flesh, u64::from(s.b.status == Status::FleshWound));
        let left = |c: &Condition| {
            if c.status == Status::OutOfAction {
                0
            } else {
                u64::from(c.wounds_left)
            }
        };
        sink.record(m.a_wounds, left(&s.a));
        sink.record(m.b_wounds, left(&s.b));
    }

    const FIRST_ROUND: bool = true;

    fn record_first_round(&self, s: &Fight, sink: &mut impl MetricSink) {
        let m = &self.m;
        if s.charge_failed {
            sink.record(m.a_strikes[0], 1);
            sink.record(m.b_strikes[0], 1);
            return;
        }
        sink.record(m.a_first, u64::from(s.winner == Outcome::A));
        sink.record(m.b_first, u64::from(s.winner == Outcome::B));
        sink.record(m.stalemate_first, u64::from(s.winner == Outcome::Stalemate));
        sink.record(m.b_out_first, u64::from(s.b.status == Status::OutOfAction));
        sink.record(m.a_out_first, u64::from(s.a.status == Status::OutOfAction));
        let (a_k, b_k) = match s.winner {
            Outcome::A => (s.strikes, 0),
            Outcome::B => (0, s.strikes),
            _ => (0, 0),
        };
        sink.record(m.a_strikes[usize::from(a_k.min(self.max_strikes))], 1);
        sink.record(m.b_strikes[usize::from(b_k.min(self.max_strikes))], 1);
        sink.record(m.mean_a_strikes, u64::from(a_k));
    }

    fn end_round(&self, s: &mut Fight) {
        s.later = true;
        s.a_dazed = false;
        s.b_dazed = false;
        s.a_roll = Extremes::default();
        s.b_roll = Extremes::default();
        s.winner = Outcome::Pending;
        s.strikes = 0;
    }
}

/// One warrior Charged by several ("Multiple Combats"): the attackers fight
/// it one after another in one Hand-to-Hand phase; "The second attacker
/// gains an additional Attack Dice and +1 to their combat score! These
/// bonuses are cumulative". Downed warriors are not taken Out of Action
/// while their side still fights ("As long as there are still Warriors on
/// both sides in the fight the Downed Warriors are ignored"); "If the last
/// Warrior of one side goes Down or Out of Action then the other Down
/// Warriors from their side will be taken Out of Action too."
#[derive(Clone, Debug)]
pub struct Outnumbered {
    /// Each attacker (all alike).
    pub attacker: Fighter,
    /// The lone defender.
    pub defender: Fighter,
    /// How many attackers.
    pub attackers: u8,
    /// The attackers charged this turn (+1 each in their round).
    pub charged: bool,
    /// Which attackers' fights are the "first round" a higher-up-for-the-
    /// first-round warrior is higher up in.
    pub first_round: FirstRound,
}

/// A multiple combat's "first round" (Forts: "their opponents will count
/// as being higher up for the first round of Hand-to-Hand Combat"; Multiple
/// Combats: "Multiple Combat situations are broken down into several
/// rounds of combat").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FirstRound {
    /// The whole phase: every attacker's fight (a round is a turn, as
    /// Charging's "+1 Modifier for that Round. If the combat continues
    /// into another turn then the Modifier no longer applies").
    #[default]
    Phase,
    /// The first attacker's fight alone (each attacker's fight a round).
    FirstAttacker,
}

/// The state of a multiple combat.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Melee {
    defender: Condition,
    current: Condition,
    fought: u8,
    out: u8,
    down: u8,
    winner: Outcome,
    strikes: u8,
}

/// Sub-steps of one attacker's round: both pools and the winner, the
/// strikes, and settling the attacker's fate.
const MELEE_STEPS: usize = 3;

/// The multiple combat's model: exact by its steps, sampled by the engine
/// an attacker's round at a time (each one draw from that round's exact
/// law, [`Mechanic::steps_per_draw`]); [`Model::run_reference`] plays the
/// rule on real dice.
pub type OutnumberedModel = StepModel<OutnumberedRule>;

/// Every metric of the multiple-combat scenario.
pub const OUTNUMBERED_METRICS: [MetricDecl; 5] = [
    // Two readings of "taken out" a reader must not confuse: beaten (Down
    // or Out, the Grodkicka example's "he finally goes Down", and "If the
    // last Warrior of one side goes Down ... the other Down Warriors ...
    // taken Out of Action too") and already Out of Action this phase.
    MetricDecl::probability(
        "p_defender_down_or_out",
        "P(defender beaten: Down or Out of Action)",
        "P(the lone defender is Down or Out of Action by the end of the phase: beaten, what a player means by taking it out; a Down defender stays Down only while its side has others fighting)",
    ),
    MetricDecl::probability(
        "p_defender_out_of_action",
        "P(defender Out of Action now, not just Down)",
        "P(the defender is already Out of Action at the end of the phase; a defender left Down is not counted here but in p_defender_down_or_out)",
    ),
    MetricDecl::mean(
        "mean_attackers_out_of_action",
        "mean attackers out of action",
        "expected attackers Out of Action at the end (Down ones too when every attacker fell)",
    ),
    MetricDecl::mean(
        "mean_attackers_down",
        "mean attackers left Down",
        "expected attackers still Down at the end of the phase",
    ),
    MetricDecl::mean(
        "mean_attackers_fought",
        "mean attackers that fought",
        "expected attackers who got to fight before the defender fell",
    ),
];

/// The multiple combat with its metric handles.
pub struct OutnumberedRule {
    fight: Outnumbered,
    clashes: ClashLaws,
    strike_laws: StrikeLaws,
    list: MetricList,
    metrics: [Metric; 5],
}

impl Outnumbered {
    /// The multiple combat's model.
    pub fn into_model(self) -> OutnumberedModel {
        StepModel::new(self.into_rule())
    }

    /// The multiple combat as a fixed number of steps.
    pub fn into_rule(self) -> OutnumberedRule {
        let n = self.attackers.saturating_sub(1);
        let dice = (self.attacker.attack_dice() + n).max(self.defender.attack_dice());
        let mut list = MetricList::new();
        let metrics = OUTNUMBERED_METRICS.map(|d| list.add(&d));
        OutnumberedRule {
            clashes: ClashLaws::up_to(dice),
            strike_laws: StrikeLaws::new(),
            fight: self,
            list,
            metrics,
        }
    }

    /// Whether the fight of attacker `k` (from 0) is the first round.
    fn first(&self, k: u8) -> bool {
        match self.first_round {
            FirstRound::Phase => true,
            FirstRound::FirstAttacker => k == 0,
        }
    }

    fn attacker_side(&self, k: u8, ws: u8) -> Side {
        Side {
            ws,
            modifier: self.attacker.modifier
                + self.attacker.higher_up_bonus(self.first(k))
                + i32::from(self.charged)
                + i32::from(k),
        }
    }

    fn defender_side(&self, k: u8, ws: u8) -> Side {
        Side {
            ws,
            modifier: self.defender.modifier + self.defender.higher_up_bonus(self.first(k)),
        }
    }
}

impl Mechanic for OutnumberedRule {
    type State = Melee;

    /// An attacker's round (both pools, the strikes, the attacker's fate)
    /// is one draw of the fast sampler.
    fn steps_per_draw(&self) -> usize {
        MELEE_STEPS
    }

    fn start(&self) -> Melee {
        Melee {
            defender: self.fight.defender.stats.fresh(),
            current: self.fight.attacker.stats.fresh(),
            fought: 0,
            out: 0,
            down: 0,
            winner: Outcome::Pending,
            strikes: 0,
        }
    }

    fn steps(&self) -> usize {
        usize::from(self.fight.attackers) * MELEE_STEPS
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut Melee) {
        let f = &self.fight;
        if s.defender.is_down_or_out() {
            return;
        }
        let k = (i / MELEE_STEPS) as u8;
        let j = i % MELEE_STEPS;
        match j {
            0 => {
                let a = f.attacker_side(k, s.current.ws);
                let b = f.defender_side(k, s.defender.ws);
                let edge = i32::from(a.ws) + a.modifier - i32::from(b.ws) - b.modifier;
                let (na, nb) = (f.attacker.attack_dice() + k, f.defender.attack_dice());
                let on_draw = draw_winner(&f.attacker, &f.defender);
                (s.winner, s.strikes) = self.clashes.clash(dice, edge, na, nb, on_draw);
            }
            1 => {
                let (n, laws) = (s.strikes, &self.strike_laws);
                match s.winner {
                    Outcome::A => {
                        s.defender =
                            laws.land(dice, true, n, &f.attacker, &f.defender, s.defender, false)
                    }
                    Outcome::B => {
                        s.current =
                            laws.land(dice, false, n, &f.defender, &f.attacker, s.current, false)
                    }
                    _ => {}
                }
            }
            _ => {
                match s.current.status {
                    Status::OutOfAction => s.out += 1,
                    Status::Down => s.down += 1,
                    _ => {}
                }
                s.fought += 1;
                s.current = f.attacker.stats.fresh();
                s.winner = Outcome::Pending;
                s.strikes = 0;
            }
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &Melee, sink: &mut impl MetricSink) {
        let [down_or_out, out, att_out, att_down, fought] = self.metrics;
        // the round in which the defender fell ends before its settling
        // step: count the attacker who was fighting
        let (mut o, mut d, mut n) = (s.out, s.down, s.fought);
        if s.defender.is_down_or_out() && s.winner != Outcome::Pending {
            match s.current.status {
                Status::OutOfAction => o += 1,
                Status::Down => d += 1,
                _ => {}
            }
            n += 1;
        }
        if o + d == self.fight.attackers {
            // the last attacker fell: the Downed ones go Out of Action too
            o += d;
            d = 0;
        }
        sink.record(down_or_out, u64::from(s.defender.is_down_or_out()));
        sink.record(out, u64::from(s.defender.status == Status::OutOfAction));
        sink.record(att_out, u64::from(o));
        sink.record(att_down, u64::from(d));
        sink.record(fought, u64::from(n));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Replay, StateDist, enumerate};
    use crate::systems::Model;

    pub(super) use crate::dice::testing::Faces;

    pub(super) fn warrior(ws: u8, attacks: u8, weapons: &[&str]) -> Fighter {
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

    /// Runs one round of `duel` on listed dice and returns the state at its
    /// end, before the round is cleared.
    fn one_round(duel: Duel, faces: &[u32]) -> (Fight, usize) {
        let model = duel.into_model();
        let rule = model.rule();
        let mut dice = Faces(faces.iter().copied().collect());
        let mut s = rule.start();
        for i in 0..rule.sub_steps() {
            rule.sub_step(i, &mut dice, &mut s);
        }
        (s, dice.0.len())
    }

    #[test]
    fn grimgutz_charges_krixit_and_strikes_once() {
        // "Grimgutz (Weapon Skill 3) Charges Krixit (WS 2). He rolls his single
        // Attack Dice and gets a 4. Krixit rolls his two Attack Dice and gets a
        // 3 and a 5. Grimgutz scores 8 ... Krixit scores 7"; "Grimgutz wins and
        // inflicts one Hit (8 - 7 = 1)."
        let grimgutz = warrior(3, 1, &["shoota", "choppa"]);
        let krixit = warrior(2, 1, &["choppa"]);
        let duel = Duel {
            a: grimgutz,
            b: krixit,
            charger: Some(Outcome::A),
            obstacle: false,
        };
        // dice 4 | 3 5 | the strike: Choppa S4 v T3 wounds on 3+ (3), no save,
        // Damage 1 takes Krixit's only Wound, Injury 4: Down, so Out of Action
        let (s, left) = one_round(duel, &[4, 3, 5, 3, 4]);
        assert_eq!(left, 0, "every listed die used");
        assert_eq!(s.round_result(), (Outcome::A, 1));
        assert_eq!(
            s.b().status,
            Status::OutOfAction,
            "Krixit, the loser, suffers the hit"
        );
        assert_eq!(s.a(), Condition::new(1, 3, 3), "Grimgutz is untouched");
    }

    #[test]
    fn ibstekia_boxcars_inflict_five_hits_alternating_weapons() {
        // "Ibstekia (WS 2) is Charged by Uxolur (WS 3). He rolls two Attack
        // Dice and gets two sixes! ... Uxolur rolls his single dice and gets a
        // result of 1!"; "Ibstekia scored 10, Uxolur scored 5. Ibstekia wins and
        // inflicts five Hits (10 - 5 = 5)."
        let ibstekia = warrior(2, 1, &["choppa", "slugga", "slugga"]);
        let mut uxolur = warrior(3, 1, &["demilune"]);
        uxolur.stats.wounds = 5;
        uxolur.stats.toughness = 4;
        let duel = Duel {
            a: ibstekia,
            b: uxolur,
            charger: Some(Outcome::B),
            obstacle: false,
        };
        // dice 6 6 | 1 | five strikes on T4 alternating Choppa (S4: 4+) and
        // Slugga (S3: 5+): each wound roll a 4, so only the Choppa's three
        // strikes (the first, third and fifth) wound: 3 Damage of 5 Wounds.
        let (s, left) = one_round(duel, &[6, 6, 1, 4, 4, 4, 4, 4]);
        assert_eq!(left, 0);
        assert_eq!(s.round_result(), (Outcome::A, 5));
        assert_eq!(s.b().wounds_left, 2, "Uxolur takes the three Choppa wounds");
        assert_eq!(s.a().wounds_left, 1);
    }

    #[test]
    fn draws_go_to_initiative_spears_and_away_from_uge_choppas() {
        let mut a = warrior(3, 1, &[]);
        let mut b = warrior(3, 1, &[]);
        a.initiative = 3;
        b.initiative = 3;
        assert_eq!(draw_winner(&a, &b), Outcome::Stalemate);
        b.armed = Armed::from_carried(&[MeleeWeapon::named("spear").unwrap()], 2).unwrap();
        assert_eq!(draw_winner(&a, &b), Outcome::B);
        a.initiative = 5;
        a.armed = Armed::from_carried(&[MeleeWeapon::named("uge_choppa").unwrap()], 2).unwrap();
        assert_eq!(
            draw_winner(&a, &b),
            Outcome::B,
            "'Uge Choppa always loses draws"
        );
        assert_eq!(decide(7, 7, Outcome::B), (Outcome::B, 1));
        assert_eq!(decide(9, 7, Outcome::B), (Outcome::A, 2));
    }

    fn duel_4v4() -> Duel {
        let mut a = warrior(3, 3, &["choppa"]);
        let mut b = warrior(4, 3, &["choppa"]);
        for f in [&mut a, &mut b] {
            f.stats.wounds = 3;
            f.stats.save = Some(5);
        }
        Duel {
            a,
            b,
            charger: Some(Outcome::A),
            obstacle: false,
        }
    }

    #[test]
    fn fought_to_the_end_matches_rounds_played_out() {
        // the chain solved by elimination against 40 rounds played out state
        // by state (all but 1e-9 of fights end by then)
        for duel in [duel_4v4(), {
            let mut d = duel_4v4();
            d.a.hatred = Some(HatredPolicy::Best);
            d.b.stupid = true;
            d.b.leadership = Some(7);
            d.b.higher_up = true;
            d
        }] {
            let model = duel.into_model();
            let exact = model.exact().unwrap();
            let rule = model.rule();
            let mut d = StateDist::certain(rule.start());
            for _ in 0..40 {
                for i in 0..rule.sub_steps() {
                    d = d
                        .step(1 << 16, |r: &mut Replay, s| {
                            if !rule.over(s) {
                                rule.sub_step(i, r, s)
                            }
                        })
                        .unwrap();
                }
                d = d.step(1, |_: &mut Replay, s| rule.end_round(s)).unwrap();
            }
            let done = d.prob(|s| rule.over(s));
            let a_wins = d.prob(|s| s.b().status == Status::OutOfAction);
            let at = |name: &str| model.metrics().iter().position(|m| m.name == name).unwrap();
            // A's wins within 40 rounds bound the whole fight's from below,
            // and the fights still going from above
            assert!(1.0 - done < 1e-9, "{done}");
            let e = exact[at("p_a_wins")];
            assert!(
                e >= a_wins - 1e-12 && e <= a_wins + (1.0 - done) + 1e-12,
                "{e} vs {a_wins}"
            );
        }
    }

    #[test]
    fn best_hatred_is_the_best_of_every_subset_of_dice() {
        // every face tuple of a 3-die pool, every gap: the best re-roll on the
        // summary equals the best over all 8 subsets of real dice
        let laws = Laws::up_to(3);
        let tuples = enumerate(1000, |r| [r.d6(), r.d6(), r.d6()]).unwrap();
        let summary = |faces: &[u32]| {
            let mut e = Extremes {
                dice: faces.len() as u8,
                ..Extremes::default()
            };
            for &f in faces {
                e.highest = e.highest.max(f as u8);
                e.tops += u8::from(f == 6);
                e.ones += u8::from(f == 1);
            }
            e
        };
        for (faces, _) in &tuples {
            let e = summary(faces);
            for gap in -9..=3 {
                for wins_draws in [false, true] {
                    let mut brute: f64 = 0.0;
                    for mask in 0u32..8 {
                        let kept: Vec<u32> = (0..3)
                            .filter(|i| mask & (1 << i) == 0)
                            .map(|i| faces[i])
                            .collect();
                        let n = mask.count_ones() as usize;
                        let p: f64 = enumerate(1000, |r| {
                            let mut all = kept.clone();
                            all.extend((0..n).map(|_| r.d6()));
                            let m = gap + margin_of(summary(&all));
                            m > 0 || (m == 0 && wins_draws)
                        })
                        .unwrap()
                        .iter()
                        .filter(|(w, _)| *w)
                        .map(|(_, p)| p)
                        .sum();
                        brute = brute.max(p);
                    }
                    let r = choose_reroll(&laws, HatredPolicy::Best, e, gap, wins_draws);
                    let ours = p_win_after(&laws, r, e, gap, wins_draws);
                    assert!(
                        (ours - brute).abs() < 1e-12,
                        "{faces:?} gap {gap}: {ours} vs {brute}"
                    );
                }
            }
        }
    }

    #[test]
    fn best_hatred_wins_the_first_round_at_least_as_often() {
        let p_first = |policy| {
            let mut d = duel_4v4();
            d.a.hatred = Some(policy);
            let m = d.into_model();
            let e = m.exact().unwrap();
            e[m.metrics()
                .iter()
                .position(|x| x.name == "p_a_wins_first_round")
                .unwrap()]
        };
        let best = p_first(HatredPolicy::Best);
        for p in [
            HatredPolicy::None,
            HatredPolicy::Ones,
            HatredPolicy::AllWhenBehind,
        ] {
            assert!(best >= p_first(p) - 1e-12, "{p:?}");
        }
        assert!(
            best > p_first(HatredPolicy::Ones) + 1e-3,
            "re-rolling more than ones pays"
        );
        assert!(p_first(HatredPolicy::Ones) > p_first(HatredPolicy::None) + 1e-3);
    }
}
