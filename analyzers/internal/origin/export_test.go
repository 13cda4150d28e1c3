package origin

// Words is words, for the external tests.
var Words = words
