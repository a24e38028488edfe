"""How often the simulated tables do what (with `vary` on): fouls, claims, closed records."""

P_CLOSED = 0.04
P_MISDEAL = 0.03
P_PEEK = 0.03
P_FOUL_HAND = 0.03
P_FOUL_OTHER = 0.02
P_ARRANGEMENT = 0.15  # of the hands played with `strict`
P_FORGIVE = 0.35
P_CLAIM = 0.5         # write `claim` lines when two or more want the card
P_KNOCK = 0.08
P_DECLINE = 0.08      # a bot lets a card go that it could take (not a win)
P_PASS = 0.4          # a bot that may pass (R13) tries to
P_CUT = 0.3
P_SPLIT_DEAL = 0.05
P_RESULT = 0.25
P_COMMENT = 0.2       # a comment on a line worth one (N1.2)
P_VOID_DECLARE = 0.5  # a qualifying hand declared at a table without automatic wins (R6.7)
P_FALSE_DECLARE = 0.004  # a hand declared that does not qualify (R6.4)

P_RANDOM_TAKE = 0.5   # a bot that misjudges a card on offer takes it (else lets it go)

OTHER_FOULS = ("talked about the cards in hand", "showed a card to a neighbour",
               "played out of turn twice", "took the deck before the cut")
