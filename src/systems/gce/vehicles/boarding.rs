//! Boarding a vehicle (Boarding Actions, Movement and Hand-to-Hand
//! Combat): each boarder's Initiative Test to get aboard; one-on-one fights
//! in sequence, the defender assigning its crew (the driver last), each a
//! round of hand-to-hand through the same laws as a duel; the loser of a
//! round is thrown overboard with a S3 hit (Step 11; variant: only a loser
//! who goes Down or Out of Action, "Losing Combat"), Down aboard is not Out
//! of Action; Pilin' On groups (a losing lead is thrown); unopposed boarders
//! hitting a location A times, with the bonus D6 on a Stationary vehicle.
//! Exact by its steps (the states merge: a fight's dice are drawn from the
//! duel's closed-form laws). The fast sampler draws six steps at once from
//! their joint law (two whole fights a draw, the leaps and the unopposed
//! hits up to six a draw).

use super::damage::{Penetration, Vehicle};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::gce::melee::{ClashLaws, Fighter, Outcome, StrikeLaws, draw_winner};
use crate::systems::gce::tables::initiative_test;
use crate::systems::gce::warrior::Damage;
use crate::systems::gce::warrior::{Condition, Hit, Status};
use crate::systems::{MetricDecl, MetricList};

/// How a side forms Pilin' On groups ("Each group of “helpers” will assist
/// a single nominated Warrior").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PileOn {
    /// Everyone fights alone.
    None,
    /// One lead, every other warrior aboard helping.
    OneGroup,
    /// As many groups as the other side has fighters, as even as possible,
    /// larger groups first (the seed's defenders: three on SkubGob, two on
    /// Modkoff).
    Split,
}

crate::variant_enum! {
    /// The first fight's charge bonus for boarders.
    pub enum BoardingBonus = "boarding_bonus" {
        /// "Successfully Boarding a Vehicle counts as a Charging. However,
        /// Vehicles count as Obstacles. As a result, the normal bonus for
        /// Charging is cancelled out for the first Combat."
        Cancelled = "cancelled",
        /// The Pilin' On example: "He would also have a +1 as he has
        /// successfully boarded this turn."
        PlusOne = "plus_one",
    }
    about: "Boarders' first fight: charge +1 and obstacle -1 cancel ('cancelled', Charging Vehicles Modifiers) or +1 (the Pilin' On example: \"a +1 as he has successfully boarded this turn\")",
}

crate::variant_enum! {
    /// Which loser of a round aboard a vehicle is thrown overboard.
    pub enum LoserThrown = "boarding_loser" {
        /// Step 11 - Aftermath: "if the fight is taking place onboard a Vehicle
        /// the loser of a round of Hand-to-Hand Combat will be chucked
        /// overboard! Regardless of whether they’re Wounded or not the price of
        /// losing is being ejected from the Vehicle"; Pilin' On: "If a group of
        /// Warriors loses a round ... whichever Warrior was taking the lead is
        /// thrown overboard."
        Every = "every_loser",
        /// Losing Combat: "Warriors who go Down or Out of Action after a round
        /// of Hand-to-Hand Combat have lost and are thrown overboard" (a loser
        /// still standing stays aboard).
        DownOrOut = "down_or_out",
    }
    about: "Who is thrown overboard after a round aboard: every loser ('every_loser', Step 11: \"Regardless of whether they’re Wounded or not\"; Pilin' On throws the losing lead) or only a loser who went Down or Out of Action ('down_or_out', Losing Combat)",
}

crate::variant_enum! {
    /// How many automatic hits an unopposed boarder deals a Stationary
    /// vehicle.
    #[derive(Default)]
    pub enum StationaryHits = "stationary_hits" {
        /// Stationary Vehicles (Close Combat): "Hit it a number of times equal
        /// to their Attack Statline".
        #[default]
        Attacks = "attacks",
        /// The v1.4 changelog: "Attacking Stationary Vehicles and Gates patched
        /// with WS only": its Weapon Skill as it stands (Flesh Wounds count).
        WeaponSkill = "ws",
    }
    about: "An unopposed boarder's automatic hits on a Stationary vehicle: its Attacks ('attacks', Stationary Vehicles (Close Combat): \"a number of times equal to their Attack Statline\") or its Weapon Skill ('ws', the v1.4 changelog: \"Attacking Stationary Vehicles and Gates patched with WS only\"); a gate's hits are WS under both",
}

/// A boarding action against one vehicle.
#[derive(Clone, Debug)]
pub struct Boarding {
    /// Each boarder (all alike).
    pub boarder: Fighter,
    /// Each crew member (all alike; the driver is the last of them).
    pub defender: Fighter,
    /// Boarders leaping aboard.
    pub boarders: u8,
    /// Warriors aboard, the driver included.
    pub crew: u8,
    /// The boarders' groups.
    pub boarders_pile_on: PileOn,
    /// The crew's groups.
    pub crew_pile_on: PileOn,
    /// The vehicle.
    pub vehicle: Vehicle,
    /// Stationary: "No rolls are required to Board", and unopposed boarders
    /// get a bonus D6 to penetrate.
    pub stationary: bool,
    /// Hits of an unopposed boarder on a Stationary vehicle.
    pub stationary_hits: StationaryHits,
    /// The location unopposed boarders hit.
    pub location: usize,
    /// The first fight's charge bonus.
    pub bonus: BoardingBonus,
    /// Which losers go overboard.
    pub loser: LoserThrown,
}

/// One warrior in the action.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Warrior {
    now: Condition,
    /// Helpers in its group (it leads when it has any or fights alone);
    /// `None` for a helper, who does not fight this turn.
    leads: Option<u8>,
    fought: bool,
    won: bool,
}

/// The action's state. Warriors thrown overboard or left on the ground
/// leave the vectors for counters, and the alike ones aboard are kept in a
/// canonical order between fights, so equal situations merge.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Action {
    boarders: Vec<Warrior>,
    /// The crew aboard; the driver, while aboard, is the last.
    crew: Vec<Warrior>,
    driver_aboard: bool,
    failed_leaps: u8,
    boarders_gone: u8,
    crew_gone: u8,
    boarders_out: u8,
    crew_out: u8,
    /// The fight in progress: (boarder, crew member), and its round.
    pair: Option<(u8, u8)>,
    winner: Outcome,
    strikes: u8,
    unopposed_pens: u8,
}

/// Every metric of the boarding scenario.
pub const BOARDING_METRICS: [MetricDecl; 11] = [
    MetricDecl::probability(
        "p_all_crew_thrown",
        "P(every defender thrown off)",
        "P(no crew member is left aboard)",
    ),
    MetricDecl::mean(
        "mean_boarders_aboard",
        "mean boarders left aboard",
        "expected boarders aboard after the fights",
    ),
    MetricDecl::mean(
        "mean_crew_thrown",
        "mean crew thrown overboard",
        "expected crew members thrown overboard",
    ),
    MetricDecl::probability(
        "p_driver_thrown",
        "P(driver thrown overboard)",
        "P(the driver, the last crew member assigned, is thrown overboard)",
    ),
    MetricDecl::probability(
        "p_out_of_control",
        "P(vehicle out of control)",
        "P(the driver is thrown overboard, or a boarder is left unopposed aboard)",
    ),
    MetricDecl::probability(
        "p_unopposed",
        "P(boarders unopposed)",
        "P(boarders aboard and no crew left)",
    ),
    MetricDecl::mean(
        "mean_failed_leaps",
        "mean boarders who fail to get aboard",
        "expected failed Initiative Tests (S3 hit on the ground)",
    ),
    MetricDecl::mean(
        "mean_unopposed_penetrating",
        "mean penetrating hits by unopposed boarders",
        "expected penetrating hits when the unopposed boarders hit the chosen location A times each (WS times on a Stationary vehicle under stationary_hits = \"ws\")",
    ),
    MetricDecl::probability(
        "p_unopposed_penetrating",
        "P(unopposed boarders penetrate)",
        "P(at least one penetrating hit by unopposed boarders)",
    ),
    MetricDecl::mean(
        "mean_boarders_out_of_action",
        "mean boarders out of action",
        "expected boarders Out of Action (in the fights, thrown overboard or falling short)",
    ),
    MetricDecl::mean(
        "mean_crew_out_of_action",
        "mean crew out of action",
        "expected crew members Out of Action",
    ),
];

/// Sub-steps of one fight: pair and clash, strikes, settle.
const PER_FIGHT: usize = 3;

/// Steps the fast sampler draws at once: two fights.
const PER_DRAW: usize = 2 * PER_FIGHT;

/// The boarding action with its handles.
pub struct BoardingRule {
    action: Boarding,
    clashes: ClashLaws,
    strikes: StrikeLaws,
    list: MetricList,
    m: [Metric; 11],
}

impl Boarding {
    /// The action's model.
    pub fn into_model(self) -> StepModel<BoardingRule> {
        let most = |f: &Fighter, n: u8| f.attack_dice() + n.saturating_sub(1);
        let dice = most(&self.boarder, self.boarders).max(most(&self.defender, self.crew));
        let mut list = MetricList::new();
        let m = BOARDING_METRICS.map(|d| list.add(&d));
        StepModel::new(BoardingRule {
            action: self,
            clashes: ClashLaws::up_to(dice),
            strikes: StrikeLaws::new(),
            list,
            m,
        })
    }

    /// The most fights the action can take: one per warrior of the larger side.
    fn fights(&self) -> usize {
        usize::from(self.boarders.max(self.crew))
    }

    /// The most hits one unopposed boarder deals: "a number of times equal
    /// to their Attack Statline", or on a Stationary vehicle under
    /// [`StationaryHits::WeaponSkill`] its Weapon Skill (at most its
    /// starting one).
    fn hits_each(&self) -> usize {
        if self.stationary && self.stationary_hits == StationaryHits::WeaponSkill {
            usize::from(self.boarder.stats.ws)
        } else {
            usize::from(self.boarder.attacks)
        }
    }

    /// Steps for the leaps, the groups formed at the end of the last:
    /// one a boarder (at least one), padded to whole draws of
    /// [`PER_DRAW`] steps so the fights start a draw.
    fn leap_steps(&self) -> usize {
        usize::from(self.boarders).max(1).next_multiple_of(PER_DRAW)
    }

    /// Steps for the fights, padded to whole draws (a padded fight finds
    /// no pair: each fight spends a fresh fighter of the larger side).
    fn fight_steps(&self) -> usize {
        (self.fights() * PER_FIGHT).next_multiple_of(PER_DRAW)
    }

    /// Steps for the unopposed boarders' hits.
    fn unopposed_hits(&self) -> usize {
        usize::from(self.boarders) * self.hits_each()
    }
}

/// Groups `n` warriors: each entry the helpers of a lead, `None` for
/// helpers, against `opponents` fighters.
fn groups(policy: PileOn, n: usize, opponents: usize) -> Vec<Option<u8>> {
    let mut out = vec![None; n];
    if n == 0 {
        return out;
    }
    let k = match policy {
        PileOn::None => n,
        PileOn::OneGroup => 1,
        PileOn::Split => opponents.clamp(1, n),
    };
    // group sizes as even as possible, larger first; leads first in order
    let mut at = 0;
    for g in 0..k {
        let size = n / k + usize::from(g < n % k);
        out[at] = Some((size - 1) as u8);
        at += size;
    }
    out
}

impl BoardingRule {
    /// The boarding rule.
    pub fn action(&self) -> &Boarding {
        &self.action
    }

    /// Forms the groups once the leaps are over.
    fn form_groups(&self, s: &mut Action) {
        let a = &self.action;
        let aboard = s.boarders.len();
        let crew = s.crew.len();
        let g = groups(a.boarders_pile_on, aboard, crew);
        for (w, lead) in s.boarders.iter_mut().zip(g) {
            w.leads = lead;
        }
        let g = groups(a.crew_pile_on, crew, aboard);
        for (w, lead) in s.crew.iter_mut().zip(g) {
            w.leads = lead;
        }
    }

    /// The next fighter of a side: a lead aboard who has not fought, else
    /// (when `reuse`) one who won its last fight.
    fn next(side: &[Warrior], reuse: bool) -> Option<usize> {
        let able = |w: &&Warrior| w.leads.is_some() && !w.now.is_down_or_out();
        side.iter().position(|w| able(&w) && !w.fought).or_else(|| {
            reuse
                .then(|| side.iter().position(|w| able(&w) && w.won))
                .flatten()
        })
    }

    /// Pairs the next fight: "This continues until all Attackers or
    /// Defenders (whichever is higher) have had a chance to fight"; the
    /// defender may use a warrior again if it won and is not Down, and so
    /// may the attacker when defenders outnumber it.
    fn pair(s: &Action) -> Option<(u8, u8)> {
        let fresh_b = Self::next(&s.boarders, false);
        let fresh_c = Self::next(&s.crew, false);
        let (b, c) = match (fresh_b, fresh_c) {
            (None, None) => return None,
            (Some(b), None) => (b, Self::next(&s.crew, true)?),
            (None, Some(c)) => (Self::next(&s.boarders, true)?, c),
            (Some(b), Some(c)) => (b, c),
        };
        Some((b as u8, c as u8))
    }

    /// A fighter's bonus dice and score this fight: Pilin' On helpers in
    /// its first fight ("If the “helped” Warrior fights multiple times in
    /// a turn then they will not receive the bonuses for subsequent
    /// opponents"), and the boarding charge.
    fn extra(&self, w: &Warrior, boarder: bool) -> (u8, i32) {
        if w.fought {
            return (0, 0);
        }
        let helpers = w.leads.unwrap_or(0);
        let charge = boarder && self.action.bonus == BoardingBonus::PlusOne;
        (helpers, i32::from(helpers) + i32::from(charge))
    }

    fn settle(&self, s: &mut Action, dice: &mut impl Roller) {
        let Some((b, c)) = s.pair.take() else {
            return;
        };
        let (b, c) = (usize::from(b), usize::from(c));
        let mark = |w: &mut Warrior, won: bool| {
            w.fought = true;
            w.won = won;
        };
        mark(&mut s.boarders[b], s.winner == Outcome::A);
        mark(&mut s.crew[c], s.winner == Outcome::B);
        // Step 11: "the loser of a round of Hand-to-Hand Combat will be
        // chucked overboard! Regardless of whether they’re Wounded or not"
        // (or, Losing Combat, "Warriors who go Down or Out of Action ...
        // have lost and are thrown overboard"); "They then take a S3 Hit".
        let goes = |w: &Warrior| match self.action.loser {
            LoserThrown::Every => true,
            LoserThrown::DownOrOut => w.now.is_down_or_out(),
        };
        match s.winner {
            Outcome::A if goes(&s.crew[c]) => {
                if c + 1 == s.crew.len() && s.driver_aboard {
                    s.driver_aboard = false;
                }
                let w = s.crew.remove(c);
                s.crew_gone += 1;
                s.crew_out += u8::from(self.thrown(dice, w.now, &self.action.defender));
            }
            Outcome::B if goes(&s.boarders[b]) => {
                let w = s.boarders.remove(b);
                s.boarders_gone += 1;
                s.boarders_out += u8::from(self.thrown(dice, w.now, &self.action.boarder));
            }
            _ => {}
        }
        s.winner = Outcome::Pending;
        s.strikes = 0;
        canonical(s);
    }

    /// The S3 hit of a warrior thrown overboard: whether it ends Out of Action.
    fn thrown(&self, dice: &mut impl Roller, mut now: Condition, f: &Fighter) -> bool {
        now.take_hit(dice, &f.stats, &Hit::by_strength(3, Damage::fixed(1)));
        now.status == Status::OutOfAction
    }
}

/// Sorts the alike warriors aboard (every boarder; the crew but the
/// driver), so situations that differ only in who is who merge.
fn canonical(s: &mut Action) {
    s.boarders.sort_unstable();
    let n = s.crew.len() - usize::from(s.driver_aboard && !s.crew.is_empty());
    s.crew[..n].sort_unstable();
}

impl Mechanic for BoardingRule {
    type State = Action;

    fn start(&self) -> Action {
        let a = &self.action;
        let w = |f: &Fighter| Warrior {
            now: f.stats.fresh(),
            leads: Some(0),
            fought: false,
            won: false,
        };
        Action {
            boarders: vec![w(&a.boarder); usize::from(a.boarders)],
            crew: vec![w(&a.defender); usize::from(a.crew)],
            driver_aboard: true,
            failed_leaps: 0,
            boarders_gone: 0,
            crew_gone: 0,
            boarders_out: 0,
            crew_out: 0,
            pair: None,
            winner: Outcome::Pending,
            strikes: 0,
            unopposed_pens: 0,
        }
    }

    fn steps(&self) -> usize {
        let a = &self.action;
        a.leap_steps() + a.fight_steps() + a.unopposed_hits().next_multiple_of(PER_DRAW)
    }

    /// The fast sampler draws [`PER_DRAW`] steps at once from their joint
    /// exact law: up to six leaps (the groups formed at the end of the
    /// draw), two whole fights, up to six unopposed hits.
    fn steps_per_draw(&self) -> usize {
        PER_DRAW
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut Action) {
        let a = &self.action;
        let leaps = usize::from(a.boarders);
        let fights_start = a.leap_steps();
        let fights_end = fights_start + a.fight_steps();
        if i < fights_start {
            // "Each Warrior must pass an Initiative Test ... If the
            // Initiative Test is failed ... they take a S3 Hit as they hit
            // the ground"; Stationary (Glossary): "No rolls are required to
            // Board".
            if i < leaps && !a.stationary && !initiative_test(dice, u32::from(a.boarder.initiative))
            {
                let w = s.boarders.pop().expect("a boarder leaps");
                s.boarders_out += u8::from(self.thrown(dice, w.now, &a.boarder));
                s.failed_leaps += 1;
            }
            if i + 1 == fights_start {
                self.form_groups(s);
            }
        } else if i < fights_end {
            match (i - fights_start) % PER_FIGHT {
                0 => {
                    let Some((b, c)) = Self::pair(s) else {
                        return;
                    };
                    s.pair = Some((b, c));
                    let (wb, wc) = (&s.boarders[usize::from(b)], &s.crew[usize::from(c)]);
                    let (db, mb) = self.extra(wb, true);
                    let (dc, mc) = self.extra(wc, false);
                    // every fight aboard is one round: its first
                    let edge = i32::from(wb.now.ws)
                        + a.boarder.modifier
                        + a.boarder.higher_up_bonus(true)
                        + mb
                        - i32::from(wc.now.ws)
                        - a.defender.modifier
                        - a.defender.higher_up_bonus(true)
                        - mc;
                    let on_draw = draw_winner(&a.boarder, &a.defender);
                    (s.winner, s.strikes) = self.clashes.clash(
                        dice,
                        edge,
                        a.boarder.attack_dice() + db,
                        a.defender.attack_dice() + dc,
                        on_draw,
                    );
                }
                1 => {
                    let Some((b, c)) = s.pair else {
                        return;
                    };
                    let (b, c) = (usize::from(b), usize::from(c));
                    match s.winner {
                        Outcome::A => {
                            s.crew[c].now = self.strikes.land(
                                dice,
                                true,
                                s.strikes,
                                &a.boarder,
                                &a.defender,
                                s.crew[c].now,
                                false,
                            )
                        }
                        Outcome::B => {
                            s.boarders[b].now = self.strikes.land(
                                dice,
                                false,
                                s.strikes,
                                &a.defender,
                                &a.boarder,
                                s.boarders[b].now,
                                false,
                            )
                        }
                        _ => {}
                    }
                }
                _ => self.settle(s, dice),
            }
        } else {
            // Unopposed Boarders: "Choose a Location and Hit it a number of
            // times equal to their Attack Statline. All Hits are automatic
            // and Armour Penetration is worked out as normal."
            let k = i - fights_end;
            if k >= a.unopposed_hits() {
                return;
            }
            let each = a.hits_each();
            let (striker, nth) = (k / each, k % each);
            let weapon_skill = a.stationary && a.stationary_hits == StationaryHits::WeaponSkill;
            if s.crew.is_empty()
                && striker < s.boarders.len()
                && (!weapon_skill || nth < usize::from(s.boarders[striker].now.ws))
            {
                let strength = a
                    .boarder
                    .armed
                    .in_hand
                    .first()
                    .map_or(a.boarder.strength, |w| {
                        w.strike_strength(a.boarder.strength)
                    });
                let pen = Penetration::Strength {
                    strength,
                    bonus_die: a.stationary,
                };
                if a.vehicle.penetrates(dice, a.location, pen) {
                    s.unopposed_pens += 1;
                }
            }
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &Action, sink: &mut impl MetricSink) {
        let [
            all,
            aboard,
            thrown,
            driver,
            control,
            unopposed,
            failed,
            pens,
            any_pen,
            b_out,
            c_out,
        ] = self.m;
        let crew_left = s.crew.len();
        let boarders_left = s.boarders.len();
        let driver_thrown = !s.driver_aboard;
        let is_unopposed = crew_left == 0 && boarders_left > 0;
        let out = |side: &[Warrior], gone: u8| {
            side.iter()
                .filter(|w| w.now.status == Status::OutOfAction)
                .count() as u64
                + u64::from(gone)
        };
        sink.record(all, u64::from(crew_left == 0));
        sink.record(aboard, boarders_left as u64);
        sink.record(thrown, u64::from(s.crew_gone));
        sink.record(driver, u64::from(driver_thrown));
        sink.record(control, u64::from(driver_thrown || is_unopposed));
        sink.record(unopposed, u64::from(is_unopposed));
        sink.record(failed, u64::from(s.failed_leaps));
        sink.record(pens, u64::from(s.unopposed_pens));
        sink.record(any_pen, u64::from(s.unopposed_pens > 0));
        sink.record(b_out, out(&s.boarders, s.boarders_out));
        sink.record(c_out, out(&s.crew, s.crew_out));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::Model;
    use crate::systems::gce::melee::{Armed, Causes, MeleeWeapon};
    use crate::systems::gce::vehicles::damage::{Size, test_trukk};
    use crate::systems::gce::warrior::WarriorStats;

    fn grot(ws: u8) -> Fighter {
        Fighter {
            stats: WarriorStats {
                toughness: 3,
                wounds: 1,
                save: None,
                ws,
                bs: 3,
                pin_immune: false,
            },
            attacks: 1,
            initiative: 3,
            strength: 3,
            leadership: None,
            armed: Armed::from_carried(&[MeleeWeapon::knife()], 2).unwrap(),
            frenzy: false,
            stupid: false,
            hatred: None,
            causes: Causes::Nothing,
            higher_up: false,
            higher_up_first_round: false,
            modifier: 0,
        }
    }

    fn trak() -> Vehicle {
        test_trukk(Size::Large, "traks")
    }

    fn action(boarders: u8, crew: u8, pile: (PileOn, PileOn), bonus: BoardingBonus) -> Boarding {
        Boarding {
            boarder: grot(2),
            defender: grot(3),
            boarders,
            crew,
            boarders_pile_on: pile.0,
            crew_pile_on: pile.1,
            vehicle: trak(),
            stationary: false,
            stationary_hits: StationaryHits::Attacks,
            location: 5,
            bonus,
            loser: LoserThrown::DownOrOut,
        }
    }

    /// "Klepski, Kilgor, and Ravvi are Rebel Grots who successfully board
    /// an Ork Trak ... a Weapon Skill of 2, an Attacks characteristic of
    /// 1, a Knife ... He would also have a +1 as he has successfully
    /// boarded this turn. However he has two mates helping him out! ... As
    /// a result he rolls 3 Attack Dice and has a total bonus of +3."
    #[test]
    fn klepski_leads_two_helpers_with_three_dice_and_plus_three() {
        for (bonus, score) in [(BoardingBonus::PlusOne, 3), (BoardingBonus::Cancelled, 2)] {
            let model = action(3, 1, (PileOn::OneGroup, PileOn::None), bonus).into_model();
            let rule = model.mechanic();
            let mut s = rule.start();
            rule.form_groups(&mut s);
            let lead = &s.boarders[0];
            assert_eq!(lead.leads, Some(2));
            assert_eq!(s.boarders[1].leads, None, "helpers do not fight");
            let (dice, modifier) = rule.extra(lead, true);
            assert_eq!(grot(2).attack_dice() + dice, 3, "3 Attack Dice");
            assert_eq!(modifier, score, "{bonus:?}");
        }
    }

    /// "Bruvov, Skiffa, and Leggit decide to take on SkubGob while Gerdat
    /// and Soxem deal with Modkoff ... Skiffa receives a bonus of +2 to
    /// their combat score and +2 Attack Dice ... Soxem gets a bonus of +1
    /// and an additional Attack Dice."
    #[test]
    fn five_grots_split_three_and_two_against_two_boarders() {
        assert_eq!(
            groups(PileOn::Split, 5, 2),
            [Some(2), None, None, Some(1), None]
        );
        assert_eq!(groups(PileOn::None, 3, 1), [Some(0), Some(0), Some(0)]);
        assert_eq!(groups(PileOn::OneGroup, 3, 2), [Some(2), None, None]);
    }

    /// One boarder against three crew: each crew member fights it in turn
    /// (the larger side all get a chance), the boarder again only while it
    /// keeps winning; a lost fight that leaves the loser standing throws
    /// nobody off.
    #[test]
    fn the_larger_side_each_get_a_fight() {
        let model =
            action(1, 3, (PileOn::None, PileOn::None), BoardingBonus::Cancelled).into_model();
        let rule = model.mechanic();
        let mut s = rule.start();
        rule.form_groups(&mut s);
        assert_eq!(BoardingRule::pair(&s), Some((0, 0)));
        // the boarder wins the first fight: crew 0 down and thrown
        s.boarders[0].fought = true;
        s.boarders[0].won = true;
        s.crew.remove(0);
        assert_eq!(
            BoardingRule::pair(&s),
            Some((0, 0)),
            "the winner fights again"
        );
        // it loses the second but stands: the last crew member (the
        // driver) has not fought, but the boarder cannot fight again
        s.boarders[0].won = false;
        s.crew[0].fought = true;
        s.crew[0].won = true;
        assert_eq!(BoardingRule::pair(&s), None);
    }

    /// Three Grots (WS 2, 1 Attack, a Knife: one Attack Dice, S3;
    /// Initiative 3) board against a lone driver (WS 3, BS 3, T3, 1 Wound,
    /// no save, Initiative 3), nobody piling on, the charge cancelled.
    ///
    /// Leaps: "Each Warrior must pass an Initiative Test" (1-3 on a D6:
    /// 1/2 each), so N aboard is 0..3 with 1/8, 3/8, 3/8, 1/8, and 3/2 fail.
    ///
    /// One fight: "Weapon Skill (WS) + Highest Attack Dice Roll",
    /// "Opponent Fumbles Each 1 your opponent rolls ... +1"; equal
    /// Initiative makes equal scores a stalemate. Boarder a, driver b:
    /// 2 + a + [b = 1] against 3 + b + [a = 1]. Over the 36 pairs the
    /// boarder wins by 1 (2-1, 4-2, 5-3, 6-4), by 2 (3-1, 5-2, 6-3), by 3
    /// (4-1, 6-2), by 4 (5-1) and by 5 (6-1): 11/36; a stalemate 4/36;
    /// the driver wins 21/36 = 7/12.
    ///
    /// Each strike: S3 against T3 wounds on 4+ (1/2), the Injury Table
    /// "1-2 FLESH WOUND ... 3-5 DOWN ... 6 OUT OF ACTION": Down or Out
    /// 1/3, a Flesh Wound 1/6 (a third one takes WS 3 and BS 3 to 0: Out
    /// of Action). Standing after k strikes (no wound or a Flesh Wound,
    /// at most two of them): 2/3, 4/9, 7/24, 3/16, 17/144 for k = 1..5.
    /// So the driver falls and is thrown ("Warriors who go Down or Out of
    /// Action after a round ... have lost and are thrown overboard") with
    /// T = 4/36 * 1/3 + 3/36 * 5/9 + 2/36 * 17/24 + 1/36 * 13/16
    ///   + 1/36 * 127/144 = 55/324.
    ///
    /// The driver who wins is unhurt and fights the next boarder ("until
    /// all Attackers or Defenders ... have had a chance to fight"); a
    /// stalemate, or a lost fight it stands through, ends the fights with
    /// it aboard. With N aboard it is thrown with T (1 + W + ... +
    /// W^(N-1)), W = 7/12; over N: T/8 (3 + 3 (1 + W) + (1 + W + W^2))
    /// = T/8 (7 + 4W + W^2) = 76615/373248. The driver is the only crew
    /// member, so every crew-thrown metric is this value, and the winner
    /// is left aboard unopposed. (Under the Step 11 reading, every loser
    /// thrown, T would be 11/36 and the value 15323/41472.)
    #[test]
    fn every_defender_thrown_off_leaves_the_boarders_unopposed() {
        let model =
            action(3, 1, (PileOn::None, PileOn::None), BoardingBonus::Cancelled).into_model();
        let exact = model.exact().unwrap();
        let at = |n: &str| exact[model.metrics().iter().position(|m| m.name == n).unwrap()];
        let thrown = 76615.0 / 373248.0;
        for m in [
            "p_driver_thrown",
            "p_all_crew_thrown",
            "p_out_of_control",
            "p_unopposed",
            "mean_crew_thrown",
        ] {
            assert!((at(m) - thrown).abs() < 1e-12, "{m} = {}", at(m));
        }
        assert!((at("mean_failed_leaps") - 1.5).abs() < 1e-12);
    }

    /// The fast samplers (step laws, a whole fight a draw; a face table)
    /// against values
    /// by hand, at fixed seeds: exact binomial tests and z-tests of means,
    /// Bonferroni over the five at a family-wise 1e-6.
    ///
    /// The three Grots against a lone driver of the test above: P(the
    /// driver thrown) = 76615/373248 and 3/2 failed leaps. Three Grots
    /// (S3, a Knife, 1 Attack) on a Stationary vehicle nobody is aboard:
    /// "No rolls are required to Board", no fight, each hits the Crew
    /// location (Armour 8) once with D6 + the bonus D6 + 3: 8 or more on
    /// two dice of 5+, 30 of 36 = 5/6: mean 3 * 5/6 = 5/2 penetrating
    /// hits, P(at least one) = 1 - 1/216 = 215/216.
    #[test]
    fn the_fast_sampler_gives_the_laws_by_hand() {
        use crate::dice::{BatchedRoller, Tally};
        use crate::engine::Sampler;
        use crate::experiment::significance::{binomial_exact_p, mean_p};
        let driver = action(3, 1, (PileOn::None, PileOn::None), BoardingBonus::Cancelled);
        let mut empty = action(3, 0, (PileOn::None, PileOn::None), BoardingBonus::Cancelled);
        empty.stationary = true;
        empty.location = 0;
        let alpha = 1e-6 / 5.0;
        let n = 4 * 65_536u64;
        for (k, b) in [driver, empty].into_iter().enumerate() {
            let model = b.into_model();
            // nobody aboard, three hits of two dice: 6^6 faces, a face table
            let want = [Sampler::StepLaws, Sampler::FaceTable][k];
            assert_eq!(model.sampler(), want, "case {k}");
            let names: Vec<&str> = model.metrics().iter().map(|m| m.name.as_str()).collect();
            let at = |name: &str| names.iter().position(|m| *m == name).unwrap();
            let mut t = Tally::new(names.len());
            for chunk in 0..4 {
                let mut r = BatchedRoller::new(29, &[k as u64, chunk]);
                model.run_chunk(&mut r, 65_536, &mut t);
            }
            let (probability, mean) = if k == 0 {
                (
                    ("p_driver_thrown", 76615.0 / 373248.0),
                    ("mean_failed_leaps", 1.5),
                )
            } else {
                (
                    ("p_unopposed_penetrating", 215.0 / 216.0),
                    ("mean_unopposed_penetrating", 2.5),
                )
            };
            let got = t.sum(at(probability.0));
            let pv = binomial_exact_p(got, n, probability.1);
            assert!(pv > alpha, "{probability:?}: {got} of {n}, p = {pv:e}");
            let i = at(mean.0);
            let m = t.sum(i) as f64 / n as f64;
            let var = t.sum_sq(i) as f64 / n as f64 - m * m;
            let pv = mean_p(m, var, n, mean.1, 0.0);
            assert!(pv > alpha, "{mean:?}: {m}, p = {pv:e}");
            if k == 1 {
                assert_eq!(t.sum(at("p_unopposed")), n, "every Grot is unopposed");
            }
        }
    }
}
