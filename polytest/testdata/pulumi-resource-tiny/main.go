// Command pulumi-resource-tiny stands in for a plugin in polytest's tests:
// it only says its name.
package main

import "fmt"

func main() { fmt.Println("tiny") }
