//! `l` chooses the AI's level for the next round: up the ladder, 1 to 7 (hard) and round
//! again; `L` down it. The game in progress keeps its AI; the score so far stays, under the new name.

use crate::ai::levels::Level;
use crate::ai::player::Player;
use crate::game::Side;

use super::App;

impl App {
    /// The side the AI plays when a person plays it, if one does.
    fn ai_side(&self) -> Option<Side> {
        let (a, b) = (
            self.driver.session().player(Side::A),
            self.driver.session().player(Side::B),
        );
        match (a.is_ai(), b.is_ai()) {
            (true, false) if b.is_human() => Some(Side::A),
            (false, true) if a.is_human() => Some(Side::B),
            _ => None,
        }
    }

    /// `l`: the next level up (after the top, level 1 again), for the next round; `L`
    /// (`up` false) the next level down (after level 1, the top).
    pub(super) fn change_level(&mut self, up: bool) {
        let Some(side) = self.ai_side() else {
            self.message = if self.driver.session().has_human() {
                "There is no AI to change in this game".into()
            } else {
                "The AIs play each other: their levels come from -x and -o".into()
            };
            return;
        };
        let now = match self.next_level {
            Some((_, player)) => player,
            None => self.driver.session().player(side),
        };
        let step = if up { Level::next } else { Level::previous };
        let next = Player::Ai(now.level().map_or(Level::EASY, step));
        self.next_level = (next != self.driver.session().player(side)).then_some((side, next));
        self.message = if self.next_level.is_some() {
            format!("Next round: {next} AI (l up, L down)")
        } else {
            format!("Next round: {next} AI, as now")
        };
    }

    /// The AI level chosen for the next round, if it differs from the current one.
    pub fn next_level(&self) -> Option<Player> {
        self.next_level.map(|(_, player)| player)
    }
}

#[cfg(test)]
mod tests {
    use crate::ai::levels::Level;
    use crate::ai::player::Player;
    use crate::game::Session;
    use crate::rules::classic::Rules;
    use crate::ui::tui::app::App;
    use crate::ui::tui::input::Action;

    #[test]
    fn capital_l_steps_the_ai_level_down_and_round_to_the_top() {
        let mut app = App::new(
            Session::new(Rules::CLASSIC, Player::Human, Player::Ai(Level::EASY)),
            (80, 24),
        );
        app.update(Action::LevelDown);
        assert_eq!(
            app.next_level(),
            Some(Player::HARD),
            "below level 1, the top"
        );
        app.update(Action::LevelDown);
        assert_eq!(app.message(), "Next round: level 6 AI (l up, L down)");
        app.update(Action::Level);
        assert_eq!(app.next_level(), Some(Player::HARD));
    }

    #[test]
    fn l_steps_the_ai_level_for_the_next_round_only() {
        let mut app = App::new(
            Session::new(Rules::CLASSIC, Player::Human, Player::HARD),
            (80, 24),
        );
        app.update(Action::Level);
        assert_eq!(app.message(), "Next round: level 1 AI (l up, L down)");
        app.update(Action::Level);
        assert_eq!(app.next_level(), Some(Player::Ai(Level::new(2).unwrap())));
        assert_eq!(
            app.game().player(crate::rules::classic::Mark::O),
            Player::HARD
        );
        app.update(Action::NewRound);
        assert_eq!(app.session().round(), 2);
        assert_eq!(
            app.session().name_of(crate::rules::classic::Mark::X),
            "level 2 AI"
        );
        assert_eq!(app.next_level(), None);
        for _ in 0..4 {
            app.update(Action::Level);
        }
        assert_eq!(app.message(), "Next round: level 6 AI (l up, L down)");
        for _ in 0..3 {
            app.update(Action::Level);
        }
        assert_eq!(app.message(), "Next round: level 2 AI, as now");
        assert_eq!(app.next_level(), None);
    }

    #[test]
    fn l_says_why_when_there_is_no_ai_to_change() {
        let mut app = App::new(
            Session::new(Rules::CLASSIC, Player::Human, Player::Human),
            (80, 24),
        );
        app.update(Action::Level);
        assert_eq!(app.message(), "There is no AI to change in this game");
        let mut app = App::new(
            Session::new(Rules::CLASSIC, Player::HARD, Player::EASY),
            (80, 24),
        );
        app.update(Action::Level);
        assert!(app.message().starts_with("The AIs play each other"));
    }
}
