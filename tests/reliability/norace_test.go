//go:build !race

package reliability

const raceEnabled = false
