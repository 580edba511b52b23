<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_GB">
<context>
    <name>Board</name>
    <message numerus="yes">
        <source>%n coin(s) free</source>
        <translation>
            <numerusform>%n coin free</numerusform>
            <numerusform>%n coins free</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n frozen</source>
        <translation>
            <numerusform>%n frozen</numerusform>
            <numerusform>%n frozen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tile(s)</source>
        <translation>
            <numerusform>%n tile</numerusform>
            <numerusform>%n tiles</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n peg(s) left</source>
        <translation>
            <numerusform>%n peg left</numerusform>
            <numerusform>%n pegs left</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{side}: seat(s) {seats}</source>
        <translation>
            <numerusform>{side}: seat {seats}</numerusform>
            <numerusform>{side}: seats {seats}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ForbansCanvas</name>
    <message numerus="yes">
        <source>{name}: %n {side} piece(s)</source>
        <translation>
            <numerusform>{name}: %n {side} piece</numerusform>
            <numerusform>{name}: %n {side} pieces</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FoundTablesBox</name>
    <message numerus="yes">
        <source>%n table(s) heard on the LAN.</source>
        <translation>
            <numerusform>%n table heard on the LAN.</numerusform>
            <numerusform>%n tables heard on the LAN.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReplayScreen</name>
    <message numerus="yes">
        <source>%n problem(s)</source>
        <translation>
            <numerusform>%n problem</numerusform>
            <numerusform>%n problems</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TableScreen</name>
    <message numerus="yes">
        <source>%n peer(s)</source>
        <translation>
            <numerusform>%n peer</numerusform>
            <numerusform>%n peers</numerusform>
        </translation>
    </message>
</context>
</TS>
