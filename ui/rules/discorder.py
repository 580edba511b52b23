"""Discorder, as the rules window tells it (both languages), with one figure per rule.

Boards are drawn as 7 lines of 8 cells, row 7 first (``J`` Jaune, ``N`` Noir, ``.``
empty); pegs are sites such as ``a3|4``.  ``discorder_figure`` checks every run's status
with the engine.
"""

from __future__ import annotations

from ui.rules import Figure, GameRules, Section, Text
from ui.rules.discorder_figures import discorder_figure

RULES = GameRules(
    game="discorder",
    name=Text("Discorder", "Discorder"),
    intro=Text(
        en="Two players, <b>Jaune</b> and <b>Noir</b>, fill an 8 × 7 board with their 28 tiles "
        "each. Lines of exactly three of your colour score for you; lines of four or more "
        "score for your opponent. Ten shared pegs cut the columns.",
        fr="Deux joueurs, <b>Jaune</b> et <b>Noir</b>, remplissent un plateau de 8 × 7 avec "
        "leurs 28 tuiles chacun. Les alignements d'exactement trois tuiles de votre couleur "
        "vous rapportent ; ceux de quatre ou plus rapportent à l'adversaire. Dix goujons "
        "communs coupent les colonnes.",
    ),
    sections=(
        Section(
            Text("A turn", "Un tour"),
            Text(
                en="Jaune starts. On your turn, either put one of your tiles on an empty cell, "
                "or put a peg from the shared supply between two cells of a column. A peg "
                "needs at least one of its two cells empty, and must <b>follow</b> something: "
                "a tile in one of its cells, or a peg just beside it on the same line. Once "
                "your tiles are all down you must place a peg if you can; otherwise your turn "
                "passes by itself.",
                fr="Jaune commence. À votre tour, posez une de vos tuiles sur une case vide, "
                "ou posez un goujon de la réserve commune entre deux cases d'une colonne. Un "
                "goujon demande qu'au moins une de ses deux cases soit vide, et doit <b>suivre"
                "</b> quelque chose : une tuile dans une de ses cases, ou un goujon juste à "
                "côté sur la même ligne. Quand toutes vos tuiles sont posées, vous devez poser "
                "un goujon si vous le pouvez ; sinon votre tour passe tout seul.",
            ),
            (
                Figure(
                    Text(
                        "The dashed sites are where a peg may go: next to a tile, or beside "
                        "the peg on c3|4 — never between two tiles.",
                        "Les emplacements en tirets acceptent un goujon : à côté d'une tuile, "
                        "ou à côté du goujon en c3|4 — jamais entre deux tuiles.",
                    ),
                    lambda: discorder_figure(
                        """
                        ........
                        ........
                        ........
                        ........
                        ........
                        ....J...
                        .N..N...
                        """,
                        "c3|4",
                        show_pegs=True,
                    ),
                ),
            ),
        ),
        Section(
            Text("Lines of three", "Les alignements de trois"),
            Text(
                en="A line is an unbroken run of one colour in a row or a column; in a column a "
                "peg ends it. A line of exactly three is <b>secured</b> (solid green) once both "
                "ends are closed, by the edge, a tile of the other colour or a peg: it will "
                "score 1 for its owner. While an end is still open it is <b>pending</b> "
                "(dashed blue): it may still grow.",
                fr="Un alignement est une suite continue d'une couleur sur une rangée ou une "
                "colonne ; dans une colonne, un goujon l'interrompt. Un alignement d'exactement "
                "trois est <b>acquis</b> (vert plein) quand ses deux bouts sont fermés, par le "
                "bord, une tuile de l'autre couleur ou un goujon : il rapportera 1 point à son "
                "propriétaire. Tant qu'un bout reste ouvert, il est <b>en attente</b> (tirets "
                "bleus) : il peut encore s'allonger.",
            ),
            (
                Figure(
                    Text(
                        "a1–c1 is secured (the edge and a Noir tile close it); e1–e3 is still "
                        "open at the top: pending.",
                        "a1–c1 est acquis (le bord et une tuile noire le ferment) ; e1–e3 est "
                        "encore ouvert en haut : en attente.",
                    ),
                    lambda: discorder_figure(
                        """
                        ........
                        ........
                        ........
                        ........
                        ....J...
                        ....J...
                        JJJNJ...
                        """,
                        runs="secured pending",
                    ),
                ),
                Figure(
                    Text(
                        "A peg on a3|4 cuts a column of six Jaune tiles into two secured "
                        "lines of three: 2 points for Jaune.",
                        "Un goujon en a3|4 coupe une colonne de six tuiles jaunes en deux "
                        "alignements de trois acquis : 2 points pour Jaune.",
                    ),
                    lambda: discorder_figure(
                        """
                        N.......
                        J.......
                        J.......
                        J.......
                        J.......
                        J.......
                        J.......
                        """,
                        "a3|4",
                        runs="secured secured",
                    ),
                ),
            ),
        ),
        Section(
            Text("Four or more: given away", "Quatre ou plus : offert"),
            Text(
                en="A line of four or more is <b>given away</b> (solid red): it scores 1 for the "
                "opponent, however long it is. Tiles never move and pegs never split tiles "
                "already placed, so this is final.",
                fr="Un alignement de quatre ou plus est <b>offert</b> (rouge plein) : il "
                "rapporte 1 point à l'adversaire, quelle que soit sa longueur. Les tuiles ne "
                "bougent jamais et un goujon ne sépare jamais des tuiles déjà posées : c'est "
                "définitif.",
            ),
            (
                Figure(
                    Text(
                        "Jaune's b3–e3 holds four tiles: a point for Noir.",
                        "b3–e3 aligne quatre tuiles jaunes : un point pour Noir.",
                    ),
                    lambda: discorder_figure(
                        """
                        ........
                        ........
                        ........
                        ........
                        .JJJJ...
                        .N......
                        ........
                        """,
                        runs="given-away",
                    ),
                ),
            ),
        ),
        Section(
            Text("No peg right after a three", "Pas de goujon juste après un trois"),
            Text(
                en="If the tile you just placed made a line of exactly three of your colour "
                "(in its row or its column), you may not place a peg on your next turn. A "
                "passed turn ends this ban.",
                fr="Si la tuile que vous venez de poser a formé un alignement d'exactement "
                "trois de votre couleur (sur sa rangée ou sa colonne), vous ne pouvez pas poser "
                "de goujon à votre tour suivant. Un tour passé lève cette interdiction.",
            ),
        ),
        Section(
            Text("End of the game", "Fin de la partie"),
            Text(
                en="The game ends when the board is full. Each line of exactly three scores 1 "
                "for its owner, each line of four or more 1 for the opponent; the higher total "
                "wins, equal totals draw. The score above the board counts secured and given "
                "away lines as the game goes.",
                fr="La partie s'arrête quand le plateau est plein. Chaque alignement "
                "d'exactement trois rapporte 1 point à son propriétaire, chaque alignement de "
                "quatre ou plus 1 point à l'adversaire ; le plus haut total gagne, l'égalité "
                "fait match nul. Le score au-dessus du plateau compte les alignements acquis "
                "et offerts en cours de partie.",
            ),
        ),
    ),
)
