<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>Animation</name>
    <message>
        <source>{game} · the start</source>
        <translation>{game} · le départ</translation>
    </message>
    <message>
        <source>{game} · ply {ply}/{plies} · {who}: {move}</source>
        <translation>{game} · coup {ply}/{plies} · {who}&#xa0;: {move}</translation>
    </message>
    <message>
        <source>{author}: {text}</source>
        <translation>{author}&#xa0;: {text}</translation>
    </message>
</context>
<context>
    <name>Board</name>
    <message>
        <source>Each coin&apos;s number is its name: the move list and the messages say which coin was flipped by that number.</source>
        <translation>Le numéro d’une pièce est son nom&#xa0;: la liste des coups et les messages disent par ce numéro quelle pièce a été retournée.</translation>
    </message>
    <message>
        <source>Play the foul</source>
        <translation>Jouer la faute</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>out</source>
        <translation>éliminé</translation>
    </message>
    <message numerus="yes">
        <source>%n coin(s) free</source>
        <translation>
            <numerusform>%n pièce libre</numerusform>
            <numerusform>%n pièces libres</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n frozen</source>
        <translation>
            <numerusform>%n gelée</numerusform>
            <numerusform>%n gelées</numerusform>
        </translation>
    </message>
    <message>
        <source>Coin {coin} cannot be flipped that way: it would not come {gain} mm closer to the middle. Drag toward the middle.</source>
        <translation>La pièce {coin} ne peut pas être retournée ainsi&#xa0;: elle ne se rapprocherait pas du milieu de {gain} mm. Tirez vers le milieu.</translation>
    </message>
    <message>
        <source>Coin {coin} would land touching {touched}: a foul. You would be out and the touching coins would freeze.</source>
        <translation>La pièce {coin} retomberait en touchant {touched}&#xa0;: une faute. Vous seriez éliminé et les pièces qui se touchent gèleraient.</translation>
    </message>
    <message>
        <source>coin {coin}</source>
        <translation>la pièce {coin}</translation>
    </message>
    <message>
        <source>the middle coin</source>
        <translation>la pièce du milieu</translation>
    </message>
    <message>
        <source> and </source>
        <translation> et </translation>
    </message>
    <message>
        <source>Coin {coin} toward {angle}: not closer to the middle. Release to cancel.</source>
        <translation>Pièce {coin} vers {angle}&#xa0;: pas assez près du milieu. Relâchez pour annuler.</translation>
    </message>
    <message>
        <source>Coin {coin} toward {angle}: lands touching {touched} — a foul.</source>
        <translation>Pièce {coin} vers {angle}&#xa0;: retombe en touchant {touched} — une faute.</translation>
    </message>
    <message>
        <source>Coin {coin} toward {angle}: {gain} mm closer. Release to flip.</source>
        <translation>Pièce {coin} vers {angle}&#xa0;: {gain} mm plus près. Relâchez pour retourner.</translation>
    </message>
    <message>
        <source>Your turn: drag from a ringed coin toward the middle to aim, release to flip.</source>
        <translation>À vous&#xa0;: tirez depuis une pièce cerclée vers le milieu pour viser, relâchez pour retourner.</translation>
    </message>
    <message>
        <source>you</source>
        <translation>vous</translation>
    </message>
    <message>
        <source>seat {seat}</source>
        <translation>siège {seat}</translation>
    </message>
    <message>
        <source>&lt;s&gt;{name}&lt;/s&gt; out</source>
        <translation>&lt;s&gt;{name}&lt;/s&gt; (éliminé)</translation>
    </message>
    <message>
        <source>&lt;b&gt;you to flip&lt;/b&gt;</source>
        <translation>&lt;b&gt;à vous de retourner&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;seat {seat} to flip&lt;/b&gt;</source>
        <translation>&lt;b&gt;au siège {seat} de retourner&lt;/b&gt;</translation>
    </message>
    <message>
        <source>{piece} on {where}: click a highlighted square.</source>
        <translation>{piece} en {where}&#xa0;: cliquez une case en surbrillance.</translation>
    </message>
    <message>
        <source>piece</source>
        <translation>pièce</translation>
    </message>
    <message>
        <source>Your {piece} must leave e5: click the square it exits to.</source>
        <translation>Votre {piece} doit quitter e5&#xa0;: cliquez la case où il sort.</translation>
    </message>
    <message>
        <source>Click a highlighted neighbour to kill it, or No kill.</source>
        <translation>Cliquez un voisin en surbrillance pour le tuer, ou Ne pas tuer.</translation>
    </message>
    <message>
        <source>Click the empty square where the displaced {victim} goes.</source>
        <translation>Cliquez la case vide où va la pièce déplacée ({victim}).</translation>
    </message>
    <message>
        <source>Click the empty square where the corpse ({victim}) goes.</source>
        <translation>Cliquez la case vide où va le cadavre ({victim}).</translation>
    </message>
    <message>
        <source>No kill</source>
        <translation>Ne pas tuer</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Retour</translation>
    </message>
    <message>
        <source>resigned: pieces neutral</source>
        <translation>a abandonné&#xa0;: pièces neutres</translation>
    </message>
    <message>
        <source>♛ rules e5</source>
        <translation>♛ règne en e5</translation>
    </message>
    <message>
        <source>owes the ruler a turn</source>
        <translation>doit encore un tour au Pouvoir</translation>
    </message>
    <message>
        <source>Nobody rules e5</source>
        <translation>Personne ne règne en e5</translation>
    </message>
    <message>
        <source>{ruler} rules e5</source>
        <translation>{ruler} règne en e5</translation>
    </message>
    <message>
        <source>{ruler} rules e5; wins after a turn of {owing}</source>
        <translation>{ruler} règne en e5&#xa0;; gagne après un tour de {owing}</translation>
    </message>
    <message>
        <source>Seat {ruler} rules e5</source>
        <translation>Le siège {ruler} règne en e5</translation>
    </message>
    <message>
        <source>Seat {ruler} rules e5; wins after a turn of seat {owing}</source>
        <translation>Le siège {ruler} règne en e5&#xa0;; il gagne après un tour du siège {owing}</translation>
    </message>
    <message>
        <source>That {piece} cannot reach {where}.</source>
        <translation>Ce {piece} ne peut pas atteindre {where}.</translation>
    </message>
    <message>
        <source>{where} is not one of the highlighted squares.</source>
        <translation>{where} n&apos;est pas une des cases en surbrillance.</translation>
    </message>
    <message>
        <source>{where} is empty: click one of your pieces.</source>
        <translation>{where} est vide&#xa0;: cliquez une de vos pièces.</translation>
    </message>
    <message>
        <source>{where} holds a corpse: corpses never move by themselves.</source>
        <translation>{where} porte un cadavre&#xa0;: un cadavre ne bouge jamais de lui-même.</translation>
    </message>
    <message>
        <source>The {piece} on {where} is not yours.</source>
        <translation>Le {piece} en {where} n&apos;est pas à vous.</translation>
    </message>
    <message>
        <source>Your {piece} on {where} has no legal move.</source>
        <translation>Votre {piece} en {where} n&apos;a aucun coup permis.</translation>
    </message>
    <message>
        <source>Your extra move as ruler: click any piece you control.</source>
        <translation>Votre coup supplémentaire au Pouvoir&#xa0;: cliquez n&apos;importe quelle pièce que vous contrôlez.</translation>
    </message>
    <message>
        <source>Your move: click one of your pieces.</source>
        <translation>À vous&#xa0;: cliquez une de vos pièces.</translation>
    </message>
    <message>
        <source>(Esc: back)</source>
        <translation>(Échap&#xa0;: retour)</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Score</translation>
    </message>
    <message>
        <source>Provisional score</source>
        <translation>Score provisoire</translation>
    </message>
    <message>
        <source>secured</source>
        <translation>acquis</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>en attente</translation>
    </message>
    <message>
        <source>given away</source>
        <translation>offert</translation>
    </message>
    <message>
        <source>&lt;b&gt;{word}: Jaune {jaune} – Noir {noir}&lt;/b&gt; &amp;nbsp; runs: {legend}</source>
        <translation>&lt;b&gt;{word}&#xa0;: Jaune {jaune} – Noir {noir}&lt;/b&gt; &amp;nbsp; alignements&#xa0;: {legend}</translation>
    </message>
    <message numerus="yes">
        <source>%n tile(s)</source>
        <translation>
            <numerusform>%n tuile</numerusform>
            <numerusform>%n tuiles</numerusform>
        </translation>
    </message>
    <message>
        <source>, no peg this turn (made a line of three)</source>
        <translation>, pas de goujon ce tour-ci (a formé un alignement de trois)</translation>
    </message>
    <message numerus="yes">
        <source>%n peg(s) left</source>
        <translation>
            <numerusform>%n goujon restant</numerusform>
            <numerusform>%n goujons restants</numerusform>
        </translation>
    </message>
    <message>
        <source>; {colour} passed (no tile, no legal peg)</source>
        <translation>&#xa0;; {colour} a passé (ni tuile, ni goujon permis)</translation>
    </message>
    <message>
        <source>Your move ({colour}):</source>
        <translation>À vous ({colour})&#xa0;:</translation>
    </message>
    <message>
        <source>click an empty cell for a tile, or a dashed site for a peg.</source>
        <translation>cliquez une case vide pour une tuile, ou un emplacement en tirets pour un goujon.</translation>
    </message>
    <message>
        <source>click an empty cell for a tile.</source>
        <translation>cliquez une case vide pour une tuile.</translation>
    </message>
    <message>
        <source>no tile left: click a dashed site for a peg.</source>
        <translation>plus de tuile&#xa0;: cliquez un emplacement en tirets pour un goujon.</translation>
    </message>
    <message>
        <source>No peg this turn: your last tile made a line of three.</source>
        <translation>Pas de goujon ce tour-ci&#xa0;: votre dernière tuile a formé un alignement de trois.</translation>
    </message>
    <message>
        <source>No peg is left in the supply.</source>
        <translation>Il ne reste aucun goujon dans la réserve.</translation>
    </message>
    <message numerus="yes">
        <source>{side}: seat(s) {seats}</source>
        <translation>
            <numerusform>{side}&#xa0;: siège {seats}</numerusform>
            <numerusform>{side}&#xa0;: sièges {seats}</numerusform>
        </translation>
    </message>
    <message>
        <source>You play {side}</source>
        <translation>Vous jouez {side}</translation>
    </message>
    <message>
        <source>camp {side}</source>
        <translation>camp {side}</translation>
    </message>
    <message>
        <source>Setup: {placed} of {total} pieces placed; {placer} places a {colour} piece</source>
        <translation>Mise en place&#xa0;: {placed} pièces posées sur {total}&#xa0;; {placer} pose une pièce {colour}</translation>
    </message>
    <message>
        <source>{names} in danger (one free port)</source>
        <translation>{names} en danger (un seul port libre)</translation>
    </message>
    <message>
        <source>No piece can be placed on {name} now: choose a ringed port.</source>
        <translation>Aucune pièce ne peut être posée à {name} maintenant&#xa0;: choisissez un port cerclé.</translation>
    </message>
    <message>
        <source>The stack on {origin} cannot reach {name}: only a ringed port one route away.</source>
        <translation>La pile de {origin} ne peut pas atteindre {name}&#xa0;: seulement un port cerclé à une route.</translation>
    </message>
    <message>
        <source>{name} holds none of your pieces.</source>
        <translation>{name} ne porte aucune de vos pièces.</translation>
    </message>
    <message>
        <source>The stack on {name} is {side}&apos;s, not yours.</source>
        <translation>La pile de {name} est à {side}, pas à vous.</translation>
    </message>
    <message>
        <source>Your stack on {name} cannot move: no free port one route away.</source>
        <translation>Votre pile de {name} ne peut pas bouger&#xa0;: aucun port libre à une route.</translation>
    </message>
    <message>
        <source>Setup, piece {number} of {total}: you place a {colour} piece. Click a ringed port.</source>
        <translation>Mise en place, pièce {number} sur {total}&#xa0;: vous posez une pièce {colour}. Cliquez un port cerclé.</translation>
    </message>
    <message>
        <source>Your move ({side}): click one of your ringed stacks.</source>
        <translation>À vous ({side})&#xa0;: cliquez une de vos piles cerclées.</translation>
    </message>
    <message>
        <source>From {name}: click a ringed port one route away.</source>
        <translation>Depuis {name}&#xa0;: cliquez un port cerclé à une route de là.</translation>
    </message>
</context>
<context>
    <name>BotName</name>
    <message>
        <source>easy</source>
        <translation>facile</translation>
    </message>
    <message>
        <source>normal</source>
        <translation>normal</translation>
    </message>
    <message>
        <source>strong</source>
        <translation>fort</translation>
    </message>
    <message>
        <source>Bot {seat} of {name}</source>
        <translation>Robot {seat} de {name}</translation>
    </message>
    <message>
        <source>{name} ({level})</source>
        <translation>{name} ({level})</translation>
    </message>
</context>
<context>
    <name>BotSpeedBox</name>
    <message>
        <source>fast</source>
        <translation>rapide</translation>
    </message>
    <message>
        <source>normal</source>
        <translation>normale</translation>
    </message>
    <message>
        <source>slow</source>
        <translation>lente</translation>
    </message>
    <message>
        <source>How long the bots think before each move</source>
        <translation>Le temps que les robots réfléchissent avant chaque coup</translation>
    </message>
    <message>
        <source>{ms} ms</source>
        <translation>{ms}&#xa0;ms</translation>
    </message>
</context>
<context>
    <name>Cards</name>
    <message>
        <source>The game is not over: {plies} plies played.</source>
        <translation>La partie n’est pas finie&#xa0;: {plies} coups joués.</translation>
    </message>
    <message>
        <source>{summary}, after {plies} plies.</source>
        <translation>{summary}, après {plies} coups.</translation>
    </message>
    <message>
        <source>Verified: valid and complete</source>
        <translation>Vérifiée&#xa0;: valide et complète</translation>
    </message>
    <message>
        <source>Verified: valid but incomplete</source>
        <translation>Vérifiée&#xa0;: valide mais incomplète</translation>
    </message>
    <message>
        <source>Verified: invalid</source>
        <translation>Vérifiée&#xa0;: invalide</translation>
    </message>
    <message>
        <source>Unreadable</source>
        <translation>Illisible</translation>
    </message>
    <message>
        <source>{verdict} ({signatures} signatures checked, {problems} problems).</source>
        <translation>{verdict} ({signatures} signatures vérifiées, {problems} problèmes).</translation>
    </message>
    <message>
        <source>Seat {seat}: {name}</source>
        <translation>Siège {seat}&#xa0;: {name}</translation>
    </message>
</context>
<context>
    <name>ChatPanel</name>
    <message>
        <source>Say something to the table…</source>
        <translation>Dites quelque chose à la table…</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Envoyer</translation>
    </message>
    <message>
        <source>{author}: {text}</source>
        <translation>{author}&#xa0;: {text}</translation>
    </message>
</context>
<context>
    <name>CognesCanvas</name>
    <message>
        <source>{gain} mm</source>
        <translation>{gain} mm</translation>
    </message>
    <message>
        <source>{gain}: not closer by {minimum} mm</source>
        <translation>{gain}&#xa0;: moins de {minimum} mm</translation>
    </message>
    <message>
        <source> — touches: foul</source>
        <translation> — touche&#xa0;: faute</translation>
    </message>
</context>
<context>
    <name>ConsensusCanvas</name>
    <message>
        <source>Pouvoir</source>
        <translation>Pouvoir</translation>
    </message>
</context>
<context>
    <name>DiscorderCanvas</name>
    <message>
        <source>Pegs</source>
        <translation>Goujons</translation>
    </message>
</context>
<context>
    <name>ForbansCanvas</name>
    <message numerus="yes">
        <source>{name}: %n {side} piece(s)</source>
        <translation>
            <numerusform>{name}&#xa0;: %n pièce {side}</numerusform>
            <numerusform>{name}&#xa0;: %n pièces {side}</numerusform>
        </translation>
    </message>
    <message>
        <source>main route</source>
        <translation>route principale</translation>
    </message>
    <message>
        <source>route</source>
        <translation>route</translation>
    </message>
    <message>
        <source>road</source>
        <translation>chemin</translation>
    </message>
    <message>
        <source>one free port left</source>
        <translation>un seul port libre</translation>
    </message>
</context>
<context>
    <name>FoundTablesBox</name>
    <message>
        <source>Tables on the LAN</source>
        <translation>Tables sur le réseau local</translation>
    </message>
    <message>
        <source>Game</source>
        <translation>Jeu</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Hôte</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>Seats free</source>
        <translation>Places libres</translation>
    </message>
    <message>
        <source>Tables on the LAN are not listened for in this window.</source>
        <translation>Cette fenêtre n’écoute pas les tables du réseau local.</translation>
    </message>
    <message>
        <source>{free} of {seats}</source>
        <translation>{free} sur {seats}</translation>
    </message>
    <message>
        <source>Join</source>
        <translation>Rejoindre</translation>
    </message>
    <message>
        <source>This table runs another version of palabre.</source>
        <translation>Cette table utilise une autre version de palabre.</translation>
    </message>
    <message>
        <source>This palabre does not have that game.</source>
        <translation>Ce palabre n’a pas ce jeu.</translation>
    </message>
    <message>
        <source>Every seat is taken.</source>
        <translation>Toutes les places sont prises.</translation>
    </message>
    <message>
        <source>Join this table, checking the host&apos;s key</source>
        <translation>Rejoindre cette table en vérifiant la clé de l’hôte</translation>
    </message>
    <message>
        <source>Listening for tables on the LAN… none heard yet.</source>
        <translation>À l’écoute des tables du réseau local… aucune entendue pour l’instant.</translation>
    </message>
    <message numerus="yes">
        <source>%n table(s) heard on the LAN.</source>
        <translation>
            <numerusform>%n table entendue sur le réseau local.</numerusform>
            <numerusform>%n tables entendues sur le réseau local.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>GameSummary</name>
    <message>
        <source>no result</source>
        <translation>pas de résultat</translation>
    </message>
    <message>
        <source>draw</source>
        <translation>nulle</translation>
    </message>
    <message>
        <source>won</source>
        <translation>gagne</translation>
    </message>
    <message>
        <source>lost on time</source>
        <translation>perdu au temps</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>perd</translation>
    </message>
    <message>
        <source>{score} points</source>
        <translation>{score} points</translation>
    </message>
    <message>
        <source>Play again</source>
        <translation>Rejouer</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>Revoir la partie</translation>
    </message>
    <message>
        <source>Copy the moves</source>
        <translation>Copier les coups</translation>
    </message>
    <message>
        <source>The game&apos;s notation, one ply a line, to paste</source>
        <translation>La notation de la partie, un coup par ligne, à coller</translation>
    </message>
    <message>
        <source>{plies} plies · you came in during the game</source>
        <translation>{plies} coups · vous êtes arrivé en cours de partie</translation>
    </message>
    <message>
        <source>{plies} plies · {minutes} min {seconds} s</source>
        <translation>{plies} coups · {minutes} min {seconds} s</translation>
    </message>
    <message>
        <source>This game has no game file to replay.</source>
        <translation>Cette partie n&apos;a pas de fichier à revoir.</translation>
    </message>
</context>
<context>
    <name>GenericBoard</name>
    <message>
        <source>filter moves</source>
        <translation>filtrer les coups</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>Jouer</translation>
    </message>
    <message>
        <source>{game} has no drawn board yet.</source>
        <translation>{game} n&apos;a pas encore de plateau dessiné.</translation>
    </message>
    <message>
        <source>Your move: double-click it in the list.</source>
        <translation>À vous&#xa0;: double-cliquez votre coup dans la liste.</translation>
    </message>
    <message>
        <source>The game is over.</source>
        <translation>La partie est finie.</translation>
    </message>
    <message>
        <source>Seat {seat} to move.</source>
        <translation>Au siège {seat} de jouer.</translation>
    </message>
</context>
<context>
    <name>KeysHelp</name>
    <message>
        <source>Ask to take back your last move</source>
        <translation>Demander à reprendre votre dernier coup</translation>
    </message>
    <message>
        <source>Write in the chat (off the board); Enter again sends the line</source>
        <translation>Écrire dans la discussion (hors du plateau) ; Entrée à nouveau envoie la ligne</translation>
    </message>
    <message>
        <source>Browse the game: the ply before or after (off the board)</source>
        <translation>Parcourir la partie : le coup d’avant ou d’après (hors du plateau)</translation>
    </message>
    <message>
        <source>Back to the live game; else one step back in a move</source>
        <translation>Retour à la partie en direct&#xa0;; sinon un pas en arrière dans un coup</translation>
    </message>
    <message>
        <source>Go to the next or previous control</source>
        <translation>Aller à la commande suivante ou précédente</translation>
    </message>
    <message>
        <source>To the board: its cursor takes the keys below</source>
        <translation>Vers le plateau : son curseur prend les touches ci-dessous</translation>
    </message>
    <message>
        <source>On the board: move the cursor (a white ring)</source>
        <translation>Sur le plateau : déplacer le curseur (un anneau blanc)</translation>
    </message>
    <message>
        <source>On the board, at your turn: pick or drop, as a click</source>
        <translation>Sur le plateau, à votre tour : prendre ou poser, comme un clic</translation>
    </message>
    <message>
        <source>On the board: the next highlighted spot</source>
        <translation>Sur le plateau : la place en surbrillance suivante</translation>
    </message>
    <message>
        <source>Cognes, aiming: turn ten directions (← → turn one)</source>
        <translation>Cognes, en visant : tourner de dix directions (← → d’une)</translation>
    </message>
    <message>
        <source>On the board: highlight the spot for all; A, then A again: an arrow</source>
        <translation>Sur le plateau : mettre la place en évidence pour tous ; A, puis A à nouveau : une flèche</translation>
    </message>
    <message>
        <source>Type a move; ↓ lists the legal ones, Enter plays</source>
        <translation>Écrire un coup ; ↓ liste les coups permis, Entrée joue</translation>
    </message>
    <message>
        <source>Show or hide this list</source>
        <translation>Montrer ou cacher cette liste</translation>
    </message>
    <message>
        <source>Keys at the table</source>
        <translation>Touches à la table</translation>
    </message>
    <message>
        <source>Esc, F1 or a click closes this list.</source>
        <translation>Échap, F1 ou un clic ferme cette liste.</translation>
    </message>
</context>
<context>
    <name>LiveAnnouncer</name>
    <message>
        <source>What just happened at the table</source>
        <translation>Ce qui vient de se passer à la table</translation>
    </message>
</context>
<context>
    <name>LobbyScreen</name>
    <message>
        <source>Seat</source>
        <translation>Siège</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>Empreinte</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Prêt</translation>
    </message>
    <message>
        <source>Copy invite</source>
        <translation>Copier l&apos;invitation</translation>
    </message>
    <message>
        <source>Invite</source>
        <translation>Invitation</translation>
    </message>
    <message>
        <source>Nobody can join? They must be on the same network as you and paste the whole invite. Your firewall must let palabre accept connections: Windows and macOS ask the first time you host a table; answer Allow (for a private network).</source>
        <translation>Personne n’arrive à vous rejoindre ? Les autres doivent être sur le même réseau que vous et coller l’invitation entière. Votre pare-feu doit laisser palabre accepter les connexions : Windows et macOS le demandent la première fois que vous accueillez une table ; répondez Autoriser (pour un réseau privé).</translation>
    </message>
    <message>
        <source>I am ready</source>
        <translation>Je suis prêt</translation>
    </message>
    <message>
        <source>Add a bot</source>
        <translation>Ajouter un robot</translation>
    </message>
    <message>
        <source>Remove bot</source>
        <translation>Retirer le robot</translation>
    </message>
    <message>
        <source>Send player away</source>
        <translation>Renvoyer le joueur</translation>
    </message>
    <message>
        <source>The selected player leaves the table and cannot come back to it.</source>
        <translation>Le joueur sélectionné quitte la table et ne peut plus y revenir.</translation>
    </message>
    <message>
        <source>Start the game</source>
        <translation>Lancer la partie</translation>
    </message>
    <message>
        <source>Leave</source>
        <translation>Partir</translation>
    </message>
    <message>
        <source>Watch</source>
        <translation>Regarder</translation>
    </message>
    <message>
        <source>Follow the game without a seat, as a spectator.</source>
        <translation>Suivre la partie sans siège, en spectateur.</translation>
    </message>
    <message>
        <source>Your table could not be opened</source>
        <translation>Votre table n’a pas pu être ouverte</translation>
    </message>
    <message>
        <source>Opening your table…</source>
        <translation>Ouverture de votre table…</translation>
    </message>
    <message>
        <source>You host this table: {game}</source>
        <translation>Vous accueillez cette table&#xa0;: {game}</translation>
    </message>
    <message>
        <source>{host}&apos;s table: {game}</source>
        <translation>Table de {host}&#xa0;: {game}</translation>
    </message>
    <message>
        <source>Table: {game}</source>
        <translation>Table&#xa0;: {game}</translation>
    </message>
    <message>
        <source>Could not join the table</source>
        <translation>Impossible de rejoindre la table</translation>
    </message>
    <message>
        <source>Joining the table…</source>
        <translation>Connexion à la table…</translation>
    </message>
    <message>
        <source>Careful: {warning}</source>
        <translation>Attention&#xa0;: {warning}</translation>
    </message>
    <message>
        <source>Every seat at that table is taken. You can still watch the game.</source>
        <translation>Tous les sièges de cette table sont pris. Vous pouvez tout de même regarder la partie.</translation>
    </message>
    <message>
        <source> (you)</source>
        <translation> (vous)</translation>
    </message>
    <message>
        <source>— free —</source>
        <translation>— libre —</translation>
    </message>
    <message>
        <source>The host refused to seat you.</source>
        <translation>L&apos;hôte a refusé de vous asseoir.</translation>
    </message>
    <message>
        <source>Nobody answered at that address: check it, and that the host&apos;s palabre is running.</source>
        <translation>Personne n&apos;a répondu à cette adresse&#xa0;: vérifiez-la, et que le palabre de l&apos;hôte tourne.</translation>
    </message>
    <message>
        <source>The host&apos;s key does not match the invite: this is not the table you were invited to.</source>
        <translation>La clé de l&apos;hôte ne correspond pas à l&apos;invitation&#xa0;: ce n&apos;est pas la table où l&apos;on vous a invité.</translation>
    </message>
    <message>
        <source>The host runs another version of palabre or of the game&apos;s rules.</source>
        <translation>L&apos;hôte utilise une autre version de palabre ou des règles du jeu.</translation>
    </message>
    <message>
        <source>This table admits only players with its invite: ask the host for it and paste it.</source>
        <translation>Cette table n&apos;admet que les joueurs munis de son invitation&#xa0;: demandez-la à l&apos;hôte et collez-la.</translation>
    </message>
    <message>
        <source>The host left before the game started.</source>
        <translation>L&apos;hôte est parti avant le début de la partie.</translation>
    </message>
    <message>
        <source>bot</source>
        <translation>robot</translation>
    </message>
    <message>
        <source>person</source>
        <translation>personne</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Retour</translation>
    </message>
    <message>
        <source>Clock: {minutes} min + {seconds} s a move for each player.</source>
        <translation>Pendule&#xa0;: {minutes} min + {seconds} s par coup pour chaque joueur.</translation>
    </message>
    <message>
        <source>Only two computers are at this table, so neither can make the other&apos;s player lose on time: each palabre stops its own player at zero. The game&apos;s record marks as disputed every move the two computers timed differently.</source>
        <translation>Seuls deux ordinateurs sont à cette table&#xa0;: aucun ne peut faire perdre au temps le joueur de l&apos;autre, chaque palabre arrête son propre joueur à zéro. La partie enregistrée marque comme contesté chaque coup que les deux ordinateurs ont chronométré différemment.</translation>
    </message>
    <message>
        <source>Invite copied: send it to the other players.</source>
        <translation>Invitation copiée&#xa0;: envoyez-la aux autres joueurs.</translation>
    </message>
    <message>
        <source>Select a bot&apos;s seat to remove it.</source>
        <translation>Sélectionnez le siège d&apos;un robot pour le retirer.</translation>
    </message>
    <message>
        <source>Select a player&apos;s seat to send them away.</source>
        <translation>Sélectionnez le siège d&apos;un joueur pour le renvoyer.</translation>
    </message>
    <message>
        <source>Send it to the other players so they can join</source>
        <translation>Envoyez-la aux autres joueurs pour qu’ils rejoignent la table</translation>
    </message>
    <message>
        <source>Seats</source>
        <translation>Sièges</translation>
    </message>
    <message>
        <source>Each seat: its player, key, kind and readiness</source>
        <translation>Chaque place&#xa0;: son joueur, sa clé, son genre et s’il est prêt</translation>
    </message>
</context>
<context>
    <name>MoveBox</name>
    <message>
        <source>Type a move…</source>
        <translation>Écrivez un coup…</translation>
    </message>
    <message>
        <source>A move in the game&apos;s notation, as the move list writes it; Enter plays it</source>
        <translation>Un coup dans la notation du jeu, comme la liste des coups l’écrit ; Entrée le joue</translation>
    </message>
    <message>
        <source>Move, typed in the game&apos;s notation</source>
        <translation>Coup, écrit dans la notation du jeu</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>Jouer</translation>
    </message>
    <message>
        <source>Play the move typed in the box</source>
        <translation>Jouer le coup écrit dans la case</translation>
    </message>
    <message>
        <source>Move</source>
        <translation>Coup</translation>
    </message>
    <message>
        <source>It is not your turn yet.</source>
        <translation>Ce n’est pas encore votre tour.</translation>
    </message>
    <message>
        <source>Not a move here: {why}</source>
        <translation>Pas un coup possible ici : {why}</translation>
    </message>
    <message>
        <source>Played {move}.</source>
        <translation>{move} joué.</translation>
    </message>
</context>
<context>
    <name>MoveList</name>
    <message>
        <source>{player} for {seat}</source>
        <translation>{player} pour {seat}</translation>
    </message>
    <message>
        <source>ply {ply} taken back</source>
        <translation>coup {ply} repris</translation>
    </message>
    <message>
        <source>{name} resigns</source>
        <translation>{name} abandonne</translation>
    </message>
    <message>
        <source>draw agreed</source>
        <translation>nulle acceptée</translation>
    </message>
    <message>
        <source>{name} lost on time</source>
        <translation>{name} a perdu au temps</translation>
    </message>
</context>
<context>
    <name>Notation</name>
    <message>
        <source>{side} piece on {port}</source>
        <translation>pièce {side} posée à {port}</translation>
    </message>
</context>
<context>
    <name>Notice</name>
    <message>
        <source>{name} offers a draw.</source>
        <translation>{name} propose la nulle.</translation>
    </message>
    <message>
        <source>The bots accept the draw.</source>
        <translation>Les robots acceptent la nulle.</translation>
    </message>
    <message>
        <source>The bots decline the draw; play goes on.</source>
        <translation>Les robots refusent la nulle&#xa0;; la partie continue.</translation>
    </message>
    <message>
        <source>{name} asks to take back ply {ply}.</source>
        <translation>{name} demande à reprendre le coup {ply}.</translation>
    </message>
    <message>
        <source>{name} consents to take back ply {ply}.</source>
        <translation>{name} accepte de reprendre le coup {ply}.</translation>
    </message>
    <message>
        <source>The bots consent.</source>
        <translation>Les robots acceptent.</translation>
    </message>
    <message>
        <source>{name} declines the takeback: {reason}.</source>
        <translation>{name} refuse de reprendre le coup : {reason}.</translation>
    </message>
    <message>
        <source>The takeback of ply {ply} lapsed: the game moved on.</source>
        <translation>La reprise du coup {ply} est caduque&#xa0;: la partie a continué.</translation>
    </message>
    <message>
        <source>You resign; it takes effect when your turn comes.</source>
        <translation>Vous abandonnez&#xa0;; cela prendra effet à votre tour.</translation>
    </message>
    <message>
        <source>Game over: {summary}</source>
        <translation>Partie terminée&#xa0;: {summary}</translation>
    </message>
    <message>
        <source>{name} lost on time.</source>
        <translation>{name} a perdu au temps.</translation>
    </message>
    <message>
        <source>{name} is away.</source>
        <translation>{name} est absent.</translation>
    </message>
    <message>
        <source>{name} is back.</source>
        <translation>{name} est de retour.</translation>
    </message>
    <message>
        <source>{name} left the table.</source>
        <translation>{name} a quitté la table.</translation>
    </message>
    <message>
        <source>{name} votes to remove {names}; bots will take their seats.</source>
        <translation>{name} vote pour retirer {names}&#xa0;; des robots prendront leurs places.</translation>
    </message>
    <message>
        <source>You were voted off the table (away or idle past its timeout): bots play your seats now, and you stay on to watch.</source>
        <translation>La table a voté votre retrait (absent ou inactif au-delà du délai)&#xa0;: des robots jouent désormais vos sièges, et vous restez en spectateur.</translation>
    </message>
    <message>
        <source>You left this table: bots play your seats now, and you stay on to watch.</source>
        <translation>Vous avez quitté cette table&#xa0;: des bots jouent vos sièges, et vous restez pour regarder.</translation>
    </message>
    <message>
        <source>Ply {ply} ({label}) was dropped: its player left.</source>
        <translation>Le coup {ply} ({label}) a été annulé&#xa0;: son joueur est parti.</translation>
    </message>
    <message>
        <source>{name} left the table ({reason}): the game cannot go on.</source>
        <translation>{name} a quitté la table ({reason})&#xa0;: la partie ne peut pas continuer.</translation>
    </message>
    <message>
        <source>Refused: {reason}</source>
        <translation>Refusé&#xa0;: {reason}</translation>
    </message>
    <message>
        <source>Warning: {text}</source>
        <translation>Attention&#xa0;: {text}</translation>
    </message>
    <message>
        <source>Evidence written to {path}</source>
        <translation>Preuves écrites dans {path}</translation>
    </message>
    <message>
        <source>The table halted at ply {ply}: {message}</source>
        <translation>La table s&apos;est arrêtée au coup {ply}&#xa0;: {message}</translation>
    </message>
    <message>
        <source>{name}&apos;s palabre stopped the table at ply {ply}, saying: “{claim}”. That is its claim, not what your palabre found: the verdict above is.</source>
        <translation>Le palabre de {name} a arrêté la table au coup {ply}, en disant&#xa0;: «&#xa0;{claim}&#xa0;». C&apos;est ce qu&apos;il affirme&#xa0;; ce que votre palabre a constaté, c&apos;est le verdict ci-dessus.</translation>
    </message>
    <message>
        <source>{name} is flooding the table; {count} lines dropped.</source>
        <translation>{name} inonde la table&#xa0;; {count} lignes écartées.</translation>
    </message>
    <message>
        <source>{name} is flooding the table; {count} pointings dropped.</source>
        <translation>{name} inonde la table&#xa0;; {count} marques écartées.</translation>
    </message>
    <message>
        <source>{name} is flooding the table; {count} records dropped.</source>
        <translation>{name} inonde la table&#xa0;; {count} messages écartés.</translation>
    </message>
</context>
<context>
    <name>OptionWords</name>
    <message>
        <source>{game} — {options}</source>
        <translation>{game} — {options}</translation>
    </message>
    <message>
        <source>{count} seats</source>
        <translation>{count} places</translation>
    </message>
</context>
<context>
    <name>Outcome</name>
    <message>
        <source>Victory by holding power on e5.</source>
        <translation>Victoire en tenant le Pouvoir en e5.</translation>
    </message>
    <message>
        <source>Victory: the last Président alive.</source>
        <translation>Victoire&#xa0;: le dernier Président en vie.</translation>
    </message>
    <message>
        <source>A whole round passed with no legal move.</source>
        <translation>Tout un tour est passé sans coup possible.</translation>
    </message>
    <message>
        <source>150 plies in a row without a kill.</source>
        <translation>150 coups de suite sans aucun mort.</translation>
    </message>
    <message>
        <source>No coin can be flipped any more: the last legal flip wins.</source>
        <translation>Plus aucune pièce ne peut être retournée&#xa0;: le dernier retournement permis gagne.</translation>
    </message>
    <message>
        <source>Every other player is out.</source>
        <translation>Tous les autres joueurs sont éliminés.</translation>
    </message>
    <message>
        <source>No coin can be flipped and nobody ever did.</source>
        <translation>Aucune pièce ne peut être retournée, et personne ne l&apos;a jamais fait.</translation>
    </message>
    <message>
        <source>The board is full: Jaune {jaune} – Noir {noir}.</source>
        <translation>Le plateau est plein&#xa0;: Jaune {jaune} – Noir {noir}.</translation>
    </message>
    <message>
        <source>Victory by gathering all six pieces on one port.</source>
        <translation>Victoire par rassemblement des six pièces sur un port.</translation>
    </message>
    <message>
        <source>Victory by encircling an enemy group.</source>
        <translation>Victoire par encerclement d&apos;un groupe ennemi.</translation>
    </message>
    <message>
        <source>The other side had no legal move.</source>
        <translation>L&apos;autre camp n&apos;avait plus de coup possible.</translation>
    </message>
    <message>
        <source>Draw rule: Bleu could have won with one more move.</source>
        <translation>Règle de nullité&#xa0;: Bleu aurait pu gagner avec un coup de plus.</translation>
    </message>
    <message>
        <source>The same position came up for the third time.</source>
        <translation>La même position est revenue pour la troisième fois.</translation>
    </message>
    <message>
        <source>The move limit was reached.</source>
        <translation>La limite de coups est atteinte.</translation>
    </message>
    <message>
        <source>Draw by agreement.</source>
        <translation>Nulle d&apos;un commun accord.</translation>
    </message>
    <message>
        <source>A player resigned.</source>
        <translation>Un joueur a abandonné.</translation>
    </message>
    <message>
        <source>The table was abandoned: {names} stayed away.</source>
        <translation>La table a été abandonnée&#xa0;: absence de {names}.</translation>
    </message>
    <message>
        <source>The table was abandoned: {names} left the table.</source>
        <translation>La table a été abandonnée&#xa0;: {names} a quitté la table.</translation>
    </message>
</context>
<context>
    <name>PlayersPanel</name>
    <message>
        <source>(you)</source>
        <translation>(vous)</translation>
    </message>
    <message>
        <source>— played by {name}</source>
        <translation>— joué par {name}</translation>
    </message>
    <message>
        <source>— away</source>
        <translation>— absent</translation>
    </message>
    <message>
        <source>— offers a draw</source>
        <translation>— propose la nulle</translation>
    </message>
</context>
<context>
    <name>PlyBrowser</name>
    <message>
        <source>Previous ply (←)</source>
        <translation>Coup précédent (←)</translation>
    </message>
    <message>
        <source>Next ply (→)</source>
        <translation>Coup suivant (→)</translation>
    </message>
    <message>
        <source>Back to live</source>
        <translation>Retour au direct</translation>
    </message>
    <message>
        <source>Show the game as it is now (Esc)</source>
        <translation>Montrer la partie telle qu&apos;elle est (Échap)</translation>
    </message>
    <message>
        <source>Viewing the start: the game goes on meanwhile ({plies} plies).</source>
        <translation>Vous regardez le départ&#xa0;; la partie continue ({plies} coups).</translation>
    </message>
    <message>
        <source>Viewing ply {ply} of {plies}: the game goes on meanwhile.</source>
        <translation>Vous regardez le coup {ply} sur {plies}&#xa0;; la partie continue.</translation>
    </message>
</context>
<context>
    <name>PlyWords</name>
    <message>
        <source>your {piece}</source>
        <translation>votre {piece}</translation>
    </message>
    <message>
        <source>{name}&apos;s {piece}</source>
        <translation>le {piece} de {name}</translation>
    </message>
    <message>
        <source>{mover} went to {square} and killed {victim}</source>
        <translation>{mover} va en {square} et tue {victim}</translation>
    </message>
    <message>
        <source>{mover} carried the corpse off {square}</source>
        <translation>{mover} emporte le cadavre de {square}</translation>
    </message>
    <message>
        <source>{mover} pushed {victim} off {square}</source>
        <translation>{mover} chasse {victim} de {square}</translation>
    </message>
    <message>
        <source>{mover} killed {victim} on {square}</source>
        <translation>{mover} tue {victim} en {square}</translation>
    </message>
    <message>
        <source>{mover} went from {origin} to {square}</source>
        <translation>{mover} va de {origin} à {square}</translation>
    </message>
</context>
<context>
    <name>PointingController</name>
    <message>
        <source>Point</source>
        <translation>Montrer</translation>
    </message>
    <message>
        <source>While on, the left button points instead of moving pieces.</source>
        <translation>Activé, le bouton gauche montre au lieu de jouer.</translation>
    </message>
    <message>
        <source>Clear my marks</source>
        <translation>Effacer mes marques</translation>
    </message>
    <message>
        <source>Right-drag on the board: an arrow; right click: a highlight. Everyone at the table sees them until the next move.</source>
        <translation>Glisser avec le bouton droit&#xa0;: une flèche&#xa0;; clic droit&#xa0;: une case marquée. Toute la table les voit jusqu&apos;au prochain coup.</translation>
    </message>
</context>
<context>
    <name>PositionWords</name>
    <message>
        <source>{name}&apos;s {piece} on {square}</source>
        <translation>le {piece} de {name} en {square}</translation>
    </message>
    <message>
        <source>{name}: {pieces}.</source>
        <translation>{name}&#xa0;: {pieces}.</translation>
    </message>
    <message>
        <source>Corpses: {corpses}.</source>
        <translation>Cadavres&#xa0;: {corpses}.</translation>
    </message>
    <message>
        <source>No corpse on the board.</source>
        <translation>Aucun cadavre sur le plateau.</translation>
    </message>
    <message>
        <source>{name} rules e5.</source>
        <translation>{name} tient e5.</translation>
    </message>
    <message>
        <source>{side} ({name}) tiles: {cells}.</source>
        <translation>Tuiles {side} ({name})&#xa0;: {cells}.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucune</translation>
    </message>
    <message>
        <source>Pegs: {pegs}.</source>
        <translation>Goujons&#xa0;: {pegs}.</translation>
    </message>
    <message>
        <source>Tiles left: Jaune {jaune_tiles}, Noir {noir_tiles}; pegs left: {pegs}; score so far: Jaune {jaune}, Noir {noir}.</source>
        <translation>Tuiles restantes&#xa0;: Jaune {jaune_tiles}, Noir {noir_tiles}&#xa0;; goujons restants&#xa0;: {pegs}&#xa0;; score provisoire&#xa0;: Jaune {jaune}, Noir {noir}.</translation>
    </message>
    <message>
        <source>{camp} ({names}): {ports}.</source>
        <translation>{camp} ({names})&#xa0;: {ports}.</translation>
    </message>
    <message>
        <source>no piece on the map</source>
        <translation>aucune pièce sur la carte</translation>
    </message>
    <message>
        <source>coin {coin} at {x} mm, {y} mm</source>
        <translation>pièce {coin} à {x} mm, {y} mm</translation>
    </message>
    <message>
        <source> (frozen)</source>
        <translation> (gelée)</translation>
    </message>
    <message>
        <source>Coins, measured from the middle one: {coins}.</source>
        <translation>Pièces, mesurées depuis celle du milieu&#xa0;: {coins}.</translation>
    </message>
    <message>
        <source>Out of the game: {names}.</source>
        <translation>Hors du jeu&#xa0;: {names}.</translation>
    </message>
</context>
<context>
    <name>RecentTables</name>
    <message>
        <source>Over: stopped on a disagreement.</source>
        <translation>Terminée : arrêtée sur un désaccord.</translation>
    </message>
    <message>
        <source>Over: a draw. {reason}</source>
        <translation>Terminée : match nul. {reason}</translation>
    </message>
    <message>
        <source>Over: no winner. {reason}</source>
        <translation>Terminée : sans vainqueur. {reason}</translation>
    </message>
    <message>
        <source>Over: {names} won. {reason}</source>
        <translation>Terminée : {names} a gagné. {reason}</translation>
    </message>
    <message>
        <source>{address} (invite)</source>
        <translation>{address} (invitation)</translation>
    </message>
    <message>
        <source>In progress</source>
        <translation>En cours</translation>
    </message>
    <message>
        <source>Not started</source>
        <translation>Pas commencée</translation>
    </message>
    <message>
        <source>players at {addresses}</source>
        <translation>joueurs à {addresses}</translation>
    </message>
</context>
<context>
    <name>RemovalWords</name>
    <message>
        <source>A player</source>
        <translation>Un joueur</translation>
    </message>
    <message>
        <source>{names} voted off the table</source>
        <translation>La table a retiré {names} par vote</translation>
    </message>
</context>
<context>
    <name>ReplayClocks</name>
    <message>
        <source>Clocks: {clocks}</source>
        <translation>Pendules&#xa0;: {clocks}</translation>
    </message>
</context>
<context>
    <name>ReplayScreen</name>
    <message>
        <source>First: the start (Home)</source>
        <translation>Premier&#xa0;: le départ (Début)</translation>
    </message>
    <message>
        <source>Previous ply (←)</source>
        <translation>Coup précédent (←)</translation>
    </message>
    <message>
        <source>Play / pause (Space)</source>
        <translation>Lecture / pause (Espace)</translation>
    </message>
    <message>
        <source>Next ply (→)</source>
        <translation>Coup suivant (→)</translation>
    </message>
    <message>
        <source>Last ply (End)</source>
        <translation>Dernier coup (Fin)</translation>
    </message>
    <message>
        <source>Problems found by the verifier</source>
        <translation>Problèmes trouvés par le vérificateur</translation>
    </message>
    <message>
        <source>Copy image</source>
        <translation>Copier l&apos;image</translation>
    </message>
    <message>
        <source>Save image…</source>
        <translation>Enregistrer l&apos;image…</translation>
    </message>
    <message>
        <source>Save animation…</source>
        <translation>Enregistrer l&apos;animation…</translation>
    </message>
    <message>
        <source>Save replay page…</source>
        <translation>Enregistrer la page de relecture…</translation>
    </message>
    <message>
        <source>Copy the moves</source>
        <translation>Copier les coups</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Retour</translation>
    </message>
    <message>
        <source>Players</source>
        <translation>Joueurs</translation>
    </message>
    <message>
        <source>Moves and chat</source>
        <translation>Coups et discussion</translation>
    </message>
    <message>
        <source>Verifying every signature and replaying every ply…</source>
        <translation>Vérification de chaque signature et rejeu de chaque coup…</translation>
    </message>
    <message>
        <source>This file cannot be replayed: {reason}</source>
        <translation>Ce fichier ne peut pas être rejoué&#xa0;: {reason}</translation>
    </message>
    <message>
        <source>{game} — {file}</source>
        <translation>{game} — {file}</translation>
    </message>
    <message>
        <source>every ply final</source>
        <translation>chaque coup définitif</translation>
    </message>
    <message>
        <source>final up to ply {ply}</source>
        <translation>définitif jusqu&apos;au coup {ply}</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s)</source>
        <translation>
            <numerusform>%n problème</numerusform>
            <numerusform>%n problèmes</numerusform>
        </translation>
    </message>
    <message>
        <source>Valid and complete</source>
        <translation>Valide et complet</translation>
    </message>
    <message>
        <source>Valid but incomplete</source>
        <translation>Valide mais incomplet</translation>
    </message>
    <message>
        <source>Invalid</source>
        <translation>Invalide</translation>
    </message>
    <message>
        <source>Unreadable</source>
        <translation>Illisible</translation>
    </message>
    <message>
        <source>{verdict}: {plies} plies, {final}, {problems}.</source>
        <translation>{verdict}&#xa0;: {plies} coups, {final}, {problems}.</translation>
    </message>
    <message>
        <source>Result: {summary}</source>
        <translation>Résultat&#xa0;: {summary}</translation>
    </message>
    <message>
        <source> (from ply {ply})</source>
        <translation> (depuis le coup {ply})</translation>
    </message>
    <message>
        <source>Seat {seat}: {name}</source>
        <translation>Siège {seat}&#xa0;: {name}</translation>
    </message>
    <message>
        <source>the start</source>
        <translation>le départ</translation>
    </message>
    <message>
        <source>{author}: {text}</source>
        <translation>{author}&#xa0;: {text}</translation>
    </message>
    <message>
        <source>{author} offers a draw</source>
        <translation>{author} propose la nulle</translation>
    </message>
    <message>
        <source>{author} accepts a draw</source>
        <translation>{author} accepte la nulle</translation>
    </message>
    <message>
        <source>{author} asks to take back ply {ply}</source>
        <translation>{author} demande à reprendre le coup {ply}</translation>
    </message>
    <message>
        <source>{author} consents to take back ply {ply}</source>
        <translation>{author} accepte de reprendre le coup {ply}</translation>
    </message>
    <message>
        <source>{name} lost on time</source>
        <translation>{name} a perdu au temps</translation>
    </message>
    <message>
        <source>{name} resigns</source>
        <translation>{name} abandonne</translation>
    </message>
    <message>
        <source>draw agreed</source>
        <translation>nulle acceptée</translation>
    </message>
    <message>
        <source>ply {ply} taken back</source>
        <translation>coup {ply} repris</translation>
    </message>
    <message>
        <source>The start.</source>
        <translation>Le départ.</translation>
    </message>
    <message>
        <source>Ply {ply}: {move}, played by {who}.</source>
        <translation>Coup {ply}&#xa0;: {move}, joué par {who}.</translation>
    </message>
    <message>
        <source>Signed by {signer}.</source>
        <translation>Signé par {signer}.</translation>
    </message>
    <message>
        <source>Pointing on this position: {names}.</source>
        <translation>Marques sur cette position&#xa0;: {names}.</translation>
    </message>
    <message>
        <source>{name} ran out of time: the ply had no effect, {name} lost on time.</source>
        <translation>{name} n&apos;avait plus de temps&#xa0;: le coup est resté sans effet, {name} a perdu au temps.</translation>
    </message>
    <message>
        <source>{name}&apos;s clock: {seconds} s for this ply.</source>
        <translation>Pendule de {name}&#xa0;: {seconds} s pour ce coup.</translation>
    </message>
    <message>
        <source>Disputed: the two computers timed this ply on both sides of the limit.</source>
        <translation>Contesté&#xa0;: les deux ordinateurs ont chronométré ce coup de part et d&apos;autre de la limite.</translation>
    </message>
    <message>
        <source>The board after ply {ply} is in the clipboard.</source>
        <translation>Le plateau après le coup {ply} est dans le presse-papiers.</translation>
    </message>
    <message>
        <source>Saved the board after ply {ply} to {path}.</source>
        <translation>Plateau après le coup {ply} enregistré dans {path}.</translation>
    </message>
    <message>
        <source>Drawing the replay page: board {done} of {total}…</source>
        <translation>Dessin de la page de relecture&#xa0;: plateau {done} sur {total}…</translation>
    </message>
    <message>
        <source>Save the replay page</source>
        <translation>Enregistrer la page de relecture</translation>
    </message>
    <message>
        <source>Web pages (*.html)</source>
        <translation>Pages web (*.html)</translation>
    </message>
    <message>
        <source>Drawing the animation: frame {done} of {total}…</source>
        <translation>Dessin de l&apos;animation&#xa0;: image {done} sur {total}…</translation>
    </message>
    <message>
        <source>Final: every player at the table acknowledged it.</source>
        <translation>Définitif&#xa0;: chaque joueur de la table l&apos;a confirmé.</translation>
    </message>
    <message>
        <source>Not final: not every player acknowledged it yet.</source>
        <translation>Pas encore définitif&#xa0;: tous les joueurs ne l&apos;ont pas confirmé.</translation>
    </message>
    <message>
        <source>Could not write {path}: {reason}</source>
        <translation>Impossible d&apos;écrire {path}&#xa0;: {reason}</translation>
    </message>
    <message>
        <source>The {plies} moves are in the clipboard.</source>
        <translation>Les {plies} coups sont dans le presse-papiers.</translation>
    </message>
    <message>
        <source>Saved the replay page to {path}: it opens in any web browser.</source>
        <translation>Page de relecture enregistrée dans {path}&#xa0;: elle s’ouvre dans n’importe quel navigateur.</translation>
    </message>
    <message>
        <source>This game is too long for one animation ({plies} plies).</source>
        <translation>Cette partie est trop longue pour une seule animation ({plies} coups).</translation>
    </message>
    <message>
        <source>Saved {frames} frames to {path} ({size} KiB).</source>
        <translation>{frames} images enregistrées dans {path} ({size} Kio).</translation>
    </message>
    <message>
        <source>Save the board as a picture</source>
        <translation>Enregistrer le plateau en image</translation>
    </message>
    <message>
        <source>PNG pictures (*.png)</source>
        <translation>Images PNG (*.png)</translation>
    </message>
    <message>
        <source>GIF animation (*.gif)</source>
        <translation>Animation GIF (*.gif)</translation>
    </message>
    <message>
        <source>Animated WebP (*.webp)</source>
        <translation>WebP animé (*.webp)</translation>
    </message>
    <message>
        <source>Save the game as an animation</source>
        <translation>Enregistrer la partie en animation</translation>
    </message>
    <message>
        <source>Animated PNG (*.png *.apng)</source>
        <translation>PNG animé (*.png *.apng)</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>Revoir la partie</translation>
    </message>
    <message>
        <source>Home, Left, Right, End and Space step through the game</source>
        <translation>Début, Gauche, Droite, Fin et Espace parcourent la partie</translation>
    </message>
    <message>
        <source>First position</source>
        <translation>Position de départ</translation>
    </message>
    <message>
        <source>Previous ply</source>
        <translation>Coup précédent</translation>
    </message>
    <message>
        <source>Play or pause</source>
        <translation>Lecture ou pause</translation>
    </message>
    <message>
        <source>Next ply</source>
        <translation>Coup suivant</translation>
    </message>
    <message>
        <source>Last ply</source>
        <translation>Dernier coup</translation>
    </message>
    <message>
        <source>Ply shown</source>
        <translation>Coup affiché</translation>
    </message>
    <message>
        <source>Drag to go to any ply of the game</source>
        <translation>Faites glisser pour aller à n’importe quel coup de la partie</translation>
    </message>
    <message>
        <source>Choose a line to see its position</source>
        <translation>Choisissez une ligne pour voir sa position</translation>
    </message>
</context>
<context>
    <name>RulesDialog</name>
    <message>
        <source>Game</source>
        <translation>Jeu</translation>
    </message>
    <message>
        <source>Rules — {game}</source>
        <translation>Règles — {game}</translation>
    </message>
    <message>
        <source>The game whose rules are shown</source>
        <translation>Le jeu dont les règles sont affichées</translation>
    </message>
    <message>
        <source>Rules</source>
        <translation>Règles</translation>
    </message>
</context>
<context>
    <name>StartScreen</name>
    <message>
        <source>Board games on your LAN, argued over, signed by every player.</source>
        <translation>Des jeux de plateau sur votre réseau local, discutés, signés par chaque joueur.</translation>
    </message>
    <message>
        <source>Automatic (system)</source>
        <translation>Automatique (système)</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Langue</translation>
    </message>
    <message>
        <source>Your key&apos;s fingerprint: the other players see it next to your name, and a host&apos;s fingerprint is in its invite.</source>
        <translation>L&apos;empreinte de votre clé&#xa0;: les autres joueurs la voient à côté de votre nom, et l&apos;empreinte d&apos;un hôte figure dans son invitation.</translation>
    </message>
    <message>
        <source>Your name</source>
        <translation>Votre nom</translation>
    </message>
    <message>
        <source>Rules…</source>
        <translation>Règles…</translation>
    </message>
    <message>
        <source>Read the rules of this game, with drawings</source>
        <translation>Lire les règles de ce jeu, avec des dessins</translation>
    </message>
    <message>
        <source>Play against bots</source>
        <translation>Jouer contre les robots</translation>
    </message>
    <message>
        <source>Game</source>
        <translation>Jeu</translation>
    </message>
    <message>
        <source>Seats</source>
        <translation>Sièges</translation>
    </message>
    <message>
        <source>Your seat</source>
        <translation>Votre siège</translation>
    </message>
    <message>
        <source>Bots</source>
        <translation>Robots</translation>
    </message>
    <message>
        <source>Play alone against bots</source>
        <translation>Jouer seul contre des robots</translation>
    </message>
    <message>
        <source>key=value, …</source>
        <translation>clé=valeur, …</translation>
    </message>
    <message>
        <source>Only players with the invite</source>
        <translation>Seulement les joueurs invités</translation>
    </message>
    <message>
        <source>The invite carries a secret: players who only know the address are refused. Send the invite to your players only.</source>
        <translation>L&apos;invitation porte un secret&#xa0;: les joueurs qui ne connaissent que l&apos;adresse sont refusés. N&apos;envoyez l&apos;invitation qu&apos;à vos joueurs.</translation>
    </message>
    <message>
        <source>Host a table</source>
        <translation>Accueillir une table</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>Options</translation>
    </message>
    <message>
        <source>Clock</source>
        <translation>Pendule</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>Host a table on the LAN</source>
        <translation>Accueillir une table sur le réseau local</translation>
    </message>
    <message>
        <source>host:port or a pasted invite</source>
        <translation>hôte:port ou une invitation collée</translation>
    </message>
    <message>
        <source>Join</source>
        <translation>Rejoindre</translation>
    </message>
    <message>
        <source>Rejoin</source>
        <translation>Revenir</translation>
    </message>
    <message>
        <source>Go back to the selected table through any of its players still there, one address after another until one answers.</source>
        <translation>Revenir à la table choisie par l’un de ses joueurs encore là, une adresse après l’autre jusqu’à ce qu’une réponde.</translation>
    </message>
    <message>
        <source>Recent tables</source>
        <translation>Tables récentes</translation>
    </message>
    <message>
        <source>Join a table</source>
        <translation>Rejoindre une table</translation>
    </message>
    <message>
        <source>Open a game file…</source>
        <translation>Ouvrir un fichier de partie…</translation>
    </message>
    <message>
        <source>Open a game file</source>
        <translation>Ouvrir un fichier de partie</translation>
    </message>
    <message>
        <source>Choose a table in the list of recent tables.</source>
        <translation>Choisissez une table dans la liste des tables récentes.</translation>
    </message>
    <message>
        <source>No fingerprint: {problem}</source>
        <translation>Pas d&apos;empreinte&#xa0;: {problem}</translation>
    </message>
    <message>
        <source>Your fingerprint: {fingerprint}</source>
        <translation>Votre empreinte&#xa0;: {fingerprint}</translation>
    </message>
    <message>
        <source>Game files</source>
        <translation>Fichiers de partie</translation>
    </message>
    <message>
        <source>Replay a finished game or check its signatures.</source>
        <translation>Rejouer une partie terminée ou vérifier ses signatures.</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>Revoir la partie</translation>
    </message>
    <message>
        <source>palabre game files (*.palabre-log *.palabre);;All files (*)</source>
        <translation>Fichiers de partie palabre (*.palabre-log *.palabre);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>No game is installed.</source>
        <translation>Aucun jeu n&apos;est installé.</translation>
    </message>
    <message>
        <source>Port {port} is already in use (by another palabre or another program): choose another port in the Port box and host again.</source>
        <translation>Le port {port} est déjà utilisé (par un autre palabre ou un autre programme)&#xa0;: choisissez un autre port dans la case Port et hébergez à nouveau.</translation>
    </message>
    <message>
        <source>Port {port} needs administrator rights: choose a port above 1023 in the Port box.</source>
        <translation>Le port {port} demande les droits d’administrateur&#xa0;: choisissez un port au-dessus de 1023 dans la case Port.</translation>
    </message>
    <message>
        <source>The table could not be opened: {reason}</source>
        <translation>La table n’a pas pu être ouverte&#xa0;: {reason}</translation>
    </message>
    <message>
        <source>Bot speed</source>
        <translation>Vitesse des robots</translation>
    </message>
    <message>
        <source>The language of the window</source>
        <translation>La langue de la fenêtre</translation>
    </message>
    <message>
        <source>Game to play against bots</source>
        <translation>Jeu à jouer contre des bots</translation>
    </message>
    <message>
        <source>Bots at the hosted table</source>
        <translation>Bots à la table hébergée</translation>
    </message>
    <message>
        <source>How many seats bots take</source>
        <translation>Combien de places prennent les bots</translation>
    </message>
    <message>
        <source>How well the host&apos;s bots play</source>
        <translation>Le niveau des bots de l’hôte</translation>
    </message>
    <message>
        <source>Table to join</source>
        <translation>Table à rejoindre</translation>
    </message>
    <message>
        <source>Its address (host:port) or an invite pasted from its host</source>
        <translation>Son adresse (hôte:port) ou une invitation collée, reçue de son hôte</translation>
    </message>
    <message>
        <source>The tables you sat at; Rejoin goes back to the selected one</source>
        <translation>Les tables où vous vous êtes assis&#xa0;; Revenir retourne à celle choisie</translation>
    </message>
    <message>
        <source>Tables heard on the LAN</source>
        <translation>Tables entendues sur le réseau local</translation>
    </message>
</context>
<context>
    <name>TableAlerts</name>
    <message>
        <source>You lost on time.</source>
        <translation>Vous avez perdu au temps.</translation>
    </message>
    <message>
        <source>{name} lost on time.</source>
        <translation>{name} a perdu au temps.</translation>
    </message>
    <message>
        <source>You lost control: your pieces are out of play.</source>
        <translation>Vous perdez la main&#xa0;: vos pièces sont hors jeu.</translation>
    </message>
    <message>
        <source>You lost control: {name} plays your pieces now.</source>
        <translation>Vous perdez la main&#xa0;: {name} joue vos pièces désormais.</translation>
    </message>
    <message>
        <source>You rule e5 now.</source>
        <translation>Vous régnez en e5.</translation>
    </message>
    <message>
        <source>{name} rules e5 now.</source>
        <translation>{name} règne en e5.</translation>
    </message>
    <message>
        <source>The game is over.</source>
        <translation>La partie est finie.</translation>
    </message>
</context>
<context>
    <name>TableReader</name>
    <message>
        <source>Ply {ply} taken back.</source>
        <translation>Coup {ply} repris.</translation>
    </message>
    <message>
        <source>{name} resigns.</source>
        <translation>{name} abandonne.</translation>
    </message>
    <message>
        <source>Draw agreed.</source>
        <translation>Nulle acceptée.</translation>
    </message>
    <message>
        <source>Absent players are taken off the table.</source>
        <translation>Les joueurs absents sont retirés de la table.</translation>
    </message>
    <message>
        <source>{who}: {move}.</source>
        <translation>{who}&#xa0;: {move}.</translation>
    </message>
    <message>
        <source>{game} board</source>
        <translation>Plateau de {game}</translation>
    </message>
    <message>
        <source>{author} says: {text}</source>
        <translation>{author} dit&#xa0;: {text}</translation>
    </message>
</context>
<context>
    <name>TableScreen</name>
    <message>
        <source>Game over — draw. {reason}</source>
        <translation>Partie terminée — nulle. {reason}</translation>
    </message>
    <message>
        <source>Game over — no winner. {reason}</source>
        <translation>Partie terminée — sans vainqueur. {reason}</translation>
    </message>
    <message>
        <source>You win!</source>
        <translation>Vous gagnez&#xa0;!</translation>
    </message>
    <message>
        <source>{names} won.</source>
        <translation>Victoire de {names}.</translation>
    </message>
    <message>
        <source>Game over — {won} {reason}</source>
        <translation>Partie terminée — {won} {reason}</translation>
    </message>
    <message>
        <source>Sound</source>
        <translation>Son</translation>
    </message>
    <message>
        <source>A sound with the table&apos;s alerts</source>
        <translation>Un son avec les alertes de la table</translation>
    </message>
    <message>
        <source>A new table with the same players; the seats move round so another starts</source>
        <translation>Une nouvelle table avec les mêmes joueurs&#xa0;; les places tournent pour qu’un autre commence</translation>
    </message>
    <message>
        <source>Resign…</source>
        <translation>Abandonner…</translation>
    </message>
    <message>
        <source>Offer draw</source>
        <translation>Proposer la nulle</translation>
    </message>
    <message>
        <source>Accept draw</source>
        <translation>Accepter la nulle</translation>
    </message>
    <message>
        <source>Take back</source>
        <translation>Reprendre</translation>
    </message>
    <message>
        <source>Ask the other players to undo your last move; each of them must agree.</source>
        <translation>Demander aux autres joueurs d&apos;annuler votre dernier coup&#xa0;; chacun doit l&apos;accepter.</translation>
    </message>
    <message>
        <source>Leave table</source>
        <translation>Quitter la table</translation>
    </message>
    <message>
        <source>Rules…</source>
        <translation>Règles…</translation>
    </message>
    <message>
        <source>Resign this game?</source>
        <translation>Abandonner cette partie&#xa0;?</translation>
    </message>
    <message>
        <source>Resign</source>
        <translation>Abandonner</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Leave this game? The others go on without you, and you cannot play it again.</source>
        <translation>Quitter cette partie ? Les autres continuent sans vous, et vous ne pourrez plus la jouer.</translation>
    </message>
    <message>
        <source>Leave</source>
        <translation>Quitter</translation>
    </message>
    <message>
        <source>Stay</source>
        <translation>Rester</translation>
    </message>
    <message>
        <source>Consent</source>
        <translation>Accepter</translation>
    </message>
    <message>
        <source>Refuse</source>
        <translation>Refuser</translation>
    </message>
    <message>
        <source>Players</source>
        <translation>Joueurs</translation>
    </message>
    <message>
        <source>Moves</source>
        <translation>Coups</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>Discussion</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Détails</translation>
    </message>
    <message>
        <source>Show the table&apos;s bookkeeping</source>
        <translation>Voir la comptabilité de la table</translation>
    </message>
    <message>
        <source>Keys (F1)</source>
        <translation>Touches (F1)</translation>
    </message>
    <message>
        <source>The keys at the table</source>
        <translation>Les touches à la table</translation>
    </message>
    <message>
        <source>Nothing to take back now: only your own last move, before the next ply.</source>
        <translation>Rien à reprendre maintenant&#xa0;: seulement votre dernier coup, avant le coup suivant.</translation>
    </message>
    <message>
        <source>The position after ply {ply} is not known here.</source>
        <translation>La position après le coup {ply} n&apos;est pas connue ici.</translation>
    </message>
    <message>
        <source>{peer} disagrees with the others</source>
        <translation>{peer} n&apos;est pas d&apos;accord avec les autres</translation>
    </message>
    <message>
        <source>being written…</source>
        <translation>en cours d&apos;écriture…</translation>
    </message>
    <message>
        <source>The table halted at ply {ply}: {who}.
{message}
The board shows the last position every player agreed on. Evidence: {evidence}</source>
        <translation>La table s&apos;est arrêtée au coup {ply}&#xa0;: {who}.
{message}
Le plateau montre la dernière position sur laquelle tous les joueurs étaient d&apos;accord. Preuves&#xa0;: {evidence}</translation>
    </message>
    <message>
        <source>{name} asks to take back ply {ply}. Do you agree?</source>
        <translation>{name} demande à reprendre le coup {ply}. Êtes-vous d&apos;accord&#xa0;?</translation>
    </message>
    <message>
        <source>no majority agrees</source>
        <translation>aucune majorité ne s&apos;accorde</translation>
    </message>
    <message>
        <source>The game cannot go on: {why}.</source>
        <translation>La partie ne peut pas continuer&#xa0;: {why}.</translation>
    </message>
    <message>
        <source>You were voted off the table (away or idle past its timeout): bots play your seats now, and you watch the game to its end.</source>
        <translation>La table a voté votre retrait (absent ou inactif au-delà du délai)&#xa0;: des robots jouent désormais vos sièges, et vous suivez la partie jusqu’à sa fin.</translation>
    </message>
    <message>
        <source>{number}. {who}: {move}</source>
        <translation>{number}. {who}&#xa0;: {move}</translation>
    </message>
    <message>
        <source>Last round:</source>
        <translation>Dernier tour&#xa0;:</translation>
    </message>
    <message>
        <source>{name} lost on time.</source>
        <translation>{name} a perdu au temps.</translation>
    </message>
    <message>
        <source>You left this table: bots play your seats now, and you watch the game to its end.</source>
        <translation>Vous avez quitté cette table&#xa0;: des bots jouent vos sièges, et vous regardez la partie jusqu’à sa fin.</translation>
    </message>
    <message>
        <source>Under 10 seconds on your clock!</source>
        <translation>Moins de 10 secondes à votre pendule&#xa0;!</translation>
    </message>
    <message>
        <source>Since your move:</source>
        <translation>Depuis votre coup&#xa0;:</translation>
    </message>
    <message>
        <source>Since the start:</source>
        <translation>Depuis le début&#xa0;:</translation>
    </message>
    <message>
        <source>The table halted at ply {ply}: nothing more can be played.</source>
        <translation>La table s&apos;est arrêtée au coup {ply}&#xa0;: plus rien ne peut être joué.</translation>
    </message>
    <message>
        <source>{game} against bots</source>
        <translation>{game} contre les robots</translation>
    </message>
    <message>
        <source>{game} at a networked table</source>
        <translation>{game} à une table en réseau</translation>
    </message>
    <message>
        <source>The {plies} moves are in the clipboard.</source>
        <translation>Les {plies} coups sont dans le presse-papiers.</translation>
    </message>
    <message>
        <source>{names} will not play again.</source>
        <translation>{names} ne rejouera pas.</translation>
    </message>
    <message>
        <source>You will play again; waiting for {names}…</source>
        <translation>Vous rejouez&#xa0;; en attente de {names}…</translation>
    </message>
    <message>
        <source>Everyone plays again: opening the new table…</source>
        <translation>Tout le monde rejoue&#xa0;: ouverture de la nouvelle table…</translation>
    </message>
    <message>
        <source>{names} would like to play again.</source>
        <translation>{names} voudrait rejouer.</translation>
    </message>
    <message>
        <source>Play again with the same players?</source>
        <translation>Rejouer avec les mêmes joueurs&#xa0;?</translation>
    </message>
    <message>
        <source>Halted.</source>
        <translation>Arrêtée.</translation>
    </message>
    <message>
        <source>Game over.</source>
        <translation>Partie terminée.</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Arrêtée.</translation>
    </message>
    <message>
        <source>Waiting for every player to confirm the start…</source>
        <translation>En attente de la confirmation du départ par chaque joueur…</translation>
    </message>
    <message>
        <source>You resign at your next turn.</source>
        <translation>Vous abandonnez à votre prochain tour.</translation>
    </message>
    <message>
        <source>Your move.</source>
        <translation>À vous de jouer.</translation>
    </message>
    <message>
        <source>{name} to move.</source>
        <translation>À {name} de jouer.</translation>
    </message>
    <message>
        <source>Ply {final}/{ply} final</source>
        <translation>Coup {final}/{ply} définitif</translation>
    </message>
    <message numerus="yes">
        <source>%n peer(s)</source>
        <translation>
            <numerusform>%n pair</numerusform>
            <numerusform>%n pairs</numerusform>
        </translation>
    </message>
    <message>
        <source>digest {digest}</source>
        <translation>condensé {digest}</translation>
    </message>
    <message>
        <source>Takeback of ply {ply}: waiting for {names}.</source>
        <translation>Reprise du coup {ply}&#xa0;: en attente de {names}.</translation>
    </message>
    <message>
        <source>I would rather not take back ply {ply}.</source>
        <translation>Je préfère ne pas reprendre le coup {ply}.</translation>
    </message>
    <message>
        <source>Who plays each seat, and who is to move</source>
        <translation>Qui joue chaque place, et à qui le tour</translation>
    </message>
    <message>
        <source>Every ply; choose one to see its position</source>
        <translation>Chaque coup&#xa0;; choisissez-en un pour voir sa position</translation>
    </message>
    <message>
        <source>What the players said and the table&apos;s notices</source>
        <translation>Ce que les joueurs ont dit et les avis de la table</translation>
    </message>
    <message>
        <source>Chat message</source>
        <translation>Message de discussion</translation>
    </message>
    <message>
        <source>Enter sends it to the table</source>
        <translation>Entrée l’envoie à la table</translation>
    </message>
    <message>
        <source>Previous ply</source>
        <translation>Coup précédent</translation>
    </message>
    <message>
        <source>Next ply</source>
        <translation>Coup suivant</translation>
    </message>
    <message>
        <source>{number}. {name} lost on time</source>
        <translation>{number}. {name} a perdu au temps</translation>
    </message>
</context>
<context>
    <name>TimeControlBox</name>
    <message>
        <source>No clock</source>
        <translation>Sans pendule</translation>
    </message>
    <message>
        <source>{minutes} min + {seconds} s a move</source>
        <translation>{minutes} min + {seconds} s par coup</translation>
    </message>
    <message>
        <source>Custom…</source>
        <translation>Personnalisée…</translation>
    </message>
    <message>
        <source>Each player&apos;s time for the game, and the seconds added after each move</source>
        <translation>Le temps de chaque joueur pour la partie, et les secondes ajoutées après chaque coup</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source> s a move</source>
        <translation> s par coup</translation>
    </message>
    <message>
        <source>Clock</source>
        <translation>Pendule</translation>
    </message>
    <message>
        <source>Minutes for each player</source>
        <translation>Minutes pour chaque joueur</translation>
    </message>
    <message>
        <source>Seconds added after each move</source>
        <translation>Secondes ajoutées après chaque coup</translation>
    </message>
</context>
<context>
    <name>Watching</name>
    <message>
        <source>Watching — {players} play {game}</source>
        <translation>Vous regardez — {players} jouent à {game}</translation>
    </message>
</context>
</TS>
