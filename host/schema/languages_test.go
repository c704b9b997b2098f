package schema

import (
	"slices"
	"strings"
	"testing"
)

// languageCases are schemas (after "name: pkg") and the problems
// LanguageProblems finds in them, as "<Language> <token>". Every case was
// put through Pulumi's generators (pkg/v3 v3.260.0, codegen/nodejs, python
// and go) and the result built: each listed language failed (the generator
// refusing or failing; tsc building under the generated tsconfig, then node
// loading every export; Python compiling and importing every module; go
// vet), and every language not listed built and loaded. A case with no
// problems holds names the generators escape or that are harmless.
var languageCases = []struct {
	name, schema string
	want         []string
}{
	// --- Resources ---
	{"resource Object", `resources: {pkg:index:Object: {properties: {a: {type: string}}}}`,
		[]string{"TypeScript pkg:index:Object"}},
	{"resource Object in a module", `resources: {pkg:storage:Object: {properties: {a: {type: string}}}}`,
		[]string{"TypeScript pkg:storage:Object"}},
	{"resource object is class Object", `resources: {pkg:index:object: {properties: {a: {type: string}}}}`,
		[]string{"TypeScript pkg:index:object"}},
	{"component Object", `resources: {pkg:index:Object: {isComponent: true, properties: {a: {type: string}}}}`,
		[]string{"TypeScript pkg:index:Object"}},
	{"resource Error", `resources: {pkg:index:Error: {inputProperties: {a: {type: string}}, requiredInputs: [a]}}`,
		[]string{"TypeScript pkg:index:Error"}},
	{"resource Init", `resources: {pkg:index:Init: {properties: {a: {type: string}}}}`,
		[]string{"Go pkg:index:Init"}},
	{"resource init in a module", `resources: {pkg:storage:init: {properties: {a: {type: string}}}}`,
		[]string{"Go pkg:storage:init"}},
	{"resource Doc", `resources: {pkg:index:Doc: {properties: {a: {type: string}}}}`,
		[]string{"Go pkg:index:Doc"}},
	{"resource PulumiTypes beside a type", `
types: {pkg:index:T: {type: object, properties: {a: {type: string}}}}
resources: {pkg:index:PulumiTypes: {properties: {t: {$ref: "#/types/pkg:index:T"}}}}`,
		[]string{"Go pkg:index:PulumiTypes"}},
	{"resource PulumiEnums beside an enum", `
types: {pkg:index:E: {type: string, enum: [{value: a}]}}
resources: {pkg:index:PulumiEnums: {inputProperties: {e: {$ref: "#/types/pkg:index:E"}}}}`,
		[]string{"Go pkg:index:PulumiEnums"}},
	{"resource Typing in a package with config", `
config: {variables: {region: {type: string}}}
resources: {pkg:index:Typing: {properties: {a: {type: string}}}}`,
		[]string{"Python pkg:index:Typing"}},
	{"resource Typing without subpackages", `resources: {pkg:index:Typing: {properties: {a: {type: string}}}}`, nil},
	{"function typing in a module without subpackages", `functions: {pkg:storage:typing: {outputs: {properties: {a: {type: string}}}}}`, nil},
	{"resource Outputs beside an output type", `
types: {pkg:index:T: {type: object, properties: {a: {type: string}}}}
resources: {pkg:index:Outputs: {properties: {t: {$ref: "#/types/pkg:index:T"}}}}`,
		[]string{"Python pkg:index:Outputs"}},
	{"resource with a dot", `resources: {pkg:index:Get.thing: {properties: {a: {type: string}}}}`,
		[]string{"TypeScript pkg:index:Get.thing", "Python pkg:index:Get.thing", "Go pkg:index:Get.thing"}},
	{"resources the generators take", `
resources:
  pkg:index:Class: {properties: {a: {type: string}}}
  pkg:index:default: {properties: {a: {type: string}}}
  pkg:index:Function: {properties: {a: {type: string}}}
  pkg:index:Promise: {properties: {a: {type: string}}}
  pkg:index:Array: {properties: {a: {type: string}}}
  pkg:index:String: {properties: {a: {type: string}}}
  pkg:index:Symbol: {properties: {a: {type: string}}}
  pkg:index:Number: {properties: {a: {type: string}}}
  pkg:index:Map: {properties: {a: {type: string}}}
  pkg:index:None: {properties: {a: {type: string}}}
  pkg:index:lambda: {properties: {a: {type: string}}}
  pkg:index:Internal: {properties: {a: {type: string}}}
  pkg:index:Config: {properties: {a: {type: string}}}
  pkg:index:Utilities: {properties: {a: {type: string}}}
  pkg:index:BucketObject: {properties: {a: {type: string}}}
  pkg:storage:Doc: {properties: {a: {type: string}}}`, nil},

	// --- Functions ---
	{"function class", `functions: {pkg:index:class: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"TypeScript pkg:index:class"}},
	{"function Delete is delete", `functions: {pkg:index:Delete: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"TypeScript pkg:index:Delete"}},
	{"function default in a module", `functions: {pkg:storage:default: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"TypeScript pkg:storage:default"}},
	{"function enum", `functions: {pkg:index:enum: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"TypeScript pkg:index:enum"}},
	{"function await", `functions: {pkg:index:await: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"TypeScript pkg:index:await"}},
	{"function yield", `functions: {pkg:index:yield: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"TypeScript pkg:index:yield"}},
	{"function let", `functions: {pkg:index:let: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"TypeScript pkg:index:let"}},
	{"function static", `functions: {pkg:index:static: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"TypeScript pkg:index:static"}},
	{"function arguments", `functions: {pkg:index:arguments: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"TypeScript pkg:index:arguments"}},
	{"function eval", `functions: {pkg:index:eval: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"TypeScript pkg:index:eval"}},
	{"function require", `functions: {pkg:index:require: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"TypeScript pkg:index:require"}},
	{"function exports", `functions: {pkg:index:exports: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"TypeScript pkg:index:exports"}},
	{"function utilities", `functions: {pkg:index:utilities: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"TypeScript pkg:index:utilities"}},
	{"function config beside config", `
config: {variables: {region: {type: string}}}
functions: {pkg:index:config: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"TypeScript pkg:index:config"}},
	{"function types beside a type", `
types: {pkg:index:T: {type: object, properties: {a: {type: string}}}}
functions: {pkg:index:types: {outputs: {properties: {t: {$ref: "#/types/pkg:index:T"}}}}}`,
		[]string{"TypeScript pkg:index:types"}},
	{"function typing beside a module", `
resources: {pkg:storage:Bucket: {properties: {a: {type: string}}}}
functions: {pkg:index:typing: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"Python pkg:index:typing"}},
	{"function init", `functions: {pkg:index:init: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"Go pkg:index:init"}},
	{"function doc", `functions: {pkg:index:doc: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"Go pkg:index:doc"}},
	{"function __init__", `functions: {pkg:index:__init__: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"Python pkg:index:__init__"}},
	{"function with a dot", `functions: {pkg:index:get.thing: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"TypeScript pkg:index:get.thing", "Python pkg:index:get.thing", "Go pkg:index:get.thing"}},
	{"function with a slash, not a method", `functions: {pkg:index:Site/orphan: {outputs: {properties: {a: {type: string}}}}}`,
		[]string{"TypeScript pkg:index:Site/orphan", "Python pkg:index:Site/orphan", "Go pkg:index:Site/orphan"}},
	{"functions the generators take", `
functions:
  pkg:index:getObject: {outputs: {properties: {a: {type: string}}}}
  pkg:index:object: {outputs: {properties: {a: {type: string}}}}
  pkg:index:get: {outputs: {properties: {a: {type: string}}}}
  pkg:index:lambda: {outputs: {properties: {a: {type: string}}}}
  pkg:index:def: {outputs: {properties: {a: {type: string}}}}
  pkg:index:print: {outputs: {properties: {a: {type: string}}}}
  pkg:index:type: {outputs: {properties: {a: {type: string}}}}
  pkg:index:func: {outputs: {properties: {a: {type: string}}}}
  pkg:index:go: {outputs: {properties: {a: {type: string}}}}
  pkg:index:module: {outputs: {properties: {a: {type: string}}}}
  pkg:index:undefined: {outputs: {properties: {a: {type: string}}}}
  pkg:index:config: {outputs: {properties: {a: {type: string}}}}
  pkg:index:types: {outputs: {properties: {a: {type: string}}}}
  pkg:storage:init: {outputs: {properties: {a: {type: string}}}}`, nil},

	// --- Types ---
	{"object type None in an output", `
types: {pkg:index:None: {type: object, properties: {a: {type: string}}}}
resources: {pkg:index:R: {properties: {n: {$ref: "#/types/pkg:index:None"}}}}`,
		[]string{"Python pkg:index:None"}},
	{"object type false in a function's inputs", `
types: {pkg:index:false: {type: object, properties: {a: {type: string}}}}
functions: {pkg:index:getR: {inputs: {properties: {n: {$ref: "#/types/pkg:index:false"}}}, outputs: {properties: {a: {type: string}}}}}`,
		[]string{"Python pkg:index:false"}},
	{"enum type True", `
types: {pkg:index:True: {type: string, enum: [{value: a}]}}
resources: {pkg:index:R: {inputProperties: {e: {$ref: "#/types/pkg:index:True"}}}}`,
		[]string{"Python pkg:index:True"}},
	{"enum type String", `
types: {pkg:index:String: {type: string, enum: [{value: a}]}}
resources: {pkg:index:R: {inputProperties: {e: {$ref: "#/types/pkg:index:String"}}}}`,
		[]string{"Go pkg:index:String"}},
	{"enum type StringPtr", `
types: {pkg:index:StringPtr: {type: string, enum: [{value: a}]}}
resources: {pkg:index:R: {inputProperties: {e: {$ref: "#/types/pkg:index:StringPtr"}}}}`,
		[]string{"Go pkg:index:StringPtr"}},
	{"enum type Int", `
types: {pkg:index:Int: {type: integer, enum: [{value: 1}]}}
resources: {pkg:index:R: {inputProperties: {e: {$ref: "#/types/pkg:index:Int"}}}}`,
		[]string{"Go pkg:index:Int"}},
	{"enum type Float64Ptr", `
types: {pkg:index:Float64Ptr: {type: number, enum: [{value: 1.5}]}}
resources: {pkg:index:R: {inputProperties: {e: {$ref: "#/types/pkg:index:Float64Ptr"}}}}`,
		[]string{"Go pkg:index:Float64Ptr"}},
	{"enum type bool", `
types: {pkg:index:bool: {type: boolean, enum: [{value: true}]}}
resources: {pkg:index:R: {inputProperties: {e: {$ref: "#/types/pkg:index:bool"}}}}`,
		[]string{"Go pkg:index:bool", "Python pkg:index:bool"}},
	{"boolean enum", `
types: {pkg:index:Flag: {type: boolean, enum: [{value: true}]}}
resources: {pkg:index:R: {inputProperties: {e: {$ref: "#/types/pkg:index:Flag"}}}}`,
		[]string{"Python pkg:index:Flag"}},
	{"type with a dot", `
types: {pkg:index:A.b: {type: object, properties: {a: {type: string}}}}
resources: {pkg:index:R: {inputProperties: {t: {$ref: "#/types/pkg:index:A.b"}}}}`,
		[]string{"TypeScript pkg:index:A.b", "Python pkg:index:A.b", "Go pkg:index:A.b"}},
	{"types the generators take", `
types:
  pkg:index:None: {type: object, properties: {a: {type: string}}}
  pkg:index:Object: {type: object, properties: {a: {type: string}}}
  pkg:index:Error: {type: string, enum: [{value: a}]}
  pkg:index:String: {type: object, properties: {a: {type: string}}}
  pkg:index:Number: {type: number, enum: [{value: 1.5}]}
  pkg:index:Integer: {type: integer, enum: [{value: 1}]}
  pkg:index:class: {type: object, properties: {a: {type: string}}}
  pkg:index:Lambda: {type: string, enum: [{value: a}]}
resources:
  pkg:index:R:
    inputProperties:
      n: {$ref: "#/types/pkg:index:None"}
      o: {$ref: "#/types/pkg:index:Object"}
      e: {$ref: "#/types/pkg:index:Error"}
      s: {$ref: "#/types/pkg:index:String"}
      f: {$ref: "#/types/pkg:index:Number"}
      i: {$ref: "#/types/pkg:index:Integer"}
      l: {$ref: "#/types/pkg:index:Lambda"}
    properties:
      o: {$ref: "#/types/pkg:index:Object"}
      s: {$ref: "#/types/pkg:index:String"}
      c: {$ref: "#/types/pkg:index:class"}`, nil},

	// --- Properties ---
	{"output property constructor", `resources: {pkg:index:R: {properties: {constructor: {type: string}}}}`,
		[]string{"TypeScript pkg:index:R"}},
	{"output property getProvider", `resources: {pkg:index:R: {properties: {getProvider: {type: string}}}}`,
		[]string{"TypeScript pkg:index:R"}},
	{"component output registerOutputs", `resources: {pkg:index:C: {isComponent: true, properties: {registerOutputs: {type: string}}}}`,
		[]string{"TypeScript pkg:index:C"}},
	{"component output initialize", `resources: {pkg:index:C: {isComponent: true, properties: {initialize: {type: string}}}}`,
		[]string{"TypeScript pkg:index:C"}},
	{"output property pulumiResourceName", `resources: {pkg:index:R: {properties: {pulumiResourceName: {type: string}}}}`,
		[]string{"Go pkg:index:R"}},
	{"function input constructor, none required", `functions: {pkg:index:getR: {inputs: {properties: {constructor: {type: string}}}, outputs: {properties: {a: {type: string}}}}}`,
		[]string{"TypeScript pkg:index:getR"}},
	{"function input opts", `functions: {pkg:index:getR: {inputs: {properties: {opts: {type: string}}, required: [opts]}, outputs: {properties: {a: {type: string}}}}}`,
		[]string{"Python pkg:index:getR"}},
	{"input property __self__", `resources: {pkg:index:R: {inputProperties: {__self__: {type: string}}}}`,
		[]string{"Python pkg:index:R"}},
	{"type property __self__", `
types: {pkg:index:T: {type: object, properties: {__self__: {type: string}}}}
resources: {pkg:index:R: {inputProperties: {t: {$ref: "#/types/pkg:index:T"}}}}`,
		[]string{"Python pkg:index:T"}},
	{"inputs fooBar and foo_bar", `resources: {pkg:index:R: {inputProperties: {fooBar: {type: string}, foo_bar: {type: string}}}}`,
		[]string{"Python pkg:index:R"}},
	{"inputs resourceName and resource_name", `resources: {pkg:index:R: {inputProperties: {resourceName: {type: string}, resource_name: {type: string}}}}`,
		[]string{"Python pkg:index:R"}},
	{"outputs fooBar and FooBar", `resources: {pkg:index:R: {properties: {fooBar: {type: string}, FooBar: {type: string}}}}`,
		[]string{"Go pkg:index:R"}},
	{"output property __self__", `resources: {pkg:index:R: {properties: {__self__: {type: string}}}}`, nil},
	{"output property urn, optional", `resources: {pkg:index:R: {properties: {urn: {type: string}}}}`,
		[]string{"TypeScript pkg:index:R"}},
	{"output property id, a required integer", `resources: {pkg:index:R: {properties: {id: {type: integer}}, required: [id]}}`,
		[]string{"TypeScript pkg:index:R"}},
	{"component output urn", `resources: {pkg:index:C: {isComponent: true, properties: {urn: {type: string}}}}`,
		[]string{"TypeScript pkg:index:C"}},
	{"function outputs foo-bar and fooBar", `functions: {pkg:index:getR: {outputs: {properties: {foo-bar: {type: string}, fooBar: {type: string}}}}}`,
		[]string{"Python pkg:index:getR", "Go pkg:index:getR"}},
	{"properties the generators take", `
resources:
  pkg:index:R:
    inputProperties:
      class: {type: string}
      lambda: {type: string}
      from: {type: string}
      def: {type: string}
      type: {type: string}
      func: {type: string}
      opts: {type: string}
      resourceName: {type: string}
      self: {type: string}
      constructor: {type: string}
      getProvider: {type: string}
      pulumiResourceName: {type: string}
      elementType: {type: string}
    properties:
      class: {type: string}
      delete: {type: string}
      new: {type: string}
      lambda: {type: string}
      import: {type: string}
      range: {type: string}
      opts: {type: string}
      elementType: {type: string}
      toROutput: {type: string}
      getData: {type: string}
      id: {type: string}
      urn: {type: string}
    required: [id, urn]
  pkg:index:C:
    isComponent: true
    properties:
      id: {type: string}
      with: {type: string}
functions:
  pkg:index:getR:
    inputs:
      properties:
        constructor: {type: string}
        class: {type: string}
        lambda: {type: string}
        type: {type: string}
        resourceName: {type: string}
      required: [class]
    outputs:
      properties:
        opts: {type: string}
        from: {type: string}
        constructor: {type: string}`, nil},

	// --- Methods ---
	{"method constructor", `
resources: {pkg:index:C: {isComponent: true, methods: {constructor: "pkg:index:C/constructor"}}}
functions: {pkg:index:C/constructor: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:C"}}, required: [__self__]}}}`,
		[]string{"TypeScript pkg:index:C"}},
	{"method getProvider", `
resources: {pkg:index:C: {isComponent: true, methods: {getProvider: "pkg:index:C/getProvider"}}}
functions: {pkg:index:C/getProvider: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:C"}}, required: [__self__]}}}`,
		[]string{"TypeScript pkg:index:C"}},
	{"method urn", `
resources: {pkg:index:C: {isComponent: true, methods: {urn: "pkg:index:C/urn"}}}
functions: {pkg:index:C/urn: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:C"}}, required: [__self__]}}}`,
		[]string{"TypeScript pkg:index:C"}},
	{"method uRN", `
resources: {pkg:index:C: {isComponent: true, methods: {uRN: "pkg:index:C/uRN"}}}
functions: {pkg:index:C/uRN: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:C"}}, required: [__self__]}}}`,
		[]string{"Go pkg:index:C"}},
	{"method iD of a custom resource", `
resources: {pkg:index:R: {properties: {a: {type: string}}, methods: {iD: "pkg:index:R/iD"}}}
functions: {pkg:index:R/iD: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:R"}}, required: [__self__]}}}`,
		[]string{"Go pkg:index:R"}},
	{"method id of a custom resource", `
resources: {pkg:index:R: {properties: {a: {type: string}}, methods: {id: "pkg:index:R/id"}}}
functions: {pkg:index:R/id: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:R"}}, required: [__self__]}}}`,
		[]string{"TypeScript pkg:index:R"}},
	{"method getData", `
resources: {pkg:index:C: {isComponent: true, methods: {getData: "pkg:index:C/getData"}}}
functions: {pkg:index:C/getData: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:C"}}, required: [__self__]}}}`,
		[]string{"TypeScript pkg:index:C"}},
	{"method elementType", `
resources: {pkg:index:C: {isComponent: true, methods: {elementType: "pkg:index:C/elementType"}}}
functions: {pkg:index:C/elementType: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:C"}}, required: [__self__]}}}`,
		[]string{"Go pkg:index:C"}},
	{"method toCOutput", `
resources: {pkg:index:C: {isComponent: true, methods: {toCOutput: "pkg:index:C/toCOutput"}}}
functions: {pkg:index:C/toCOutput: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:C"}}, required: [__self__]}}}`,
		[]string{"Go pkg:index:C"}},
	{"method argument constructor, none required", `
resources: {pkg:index:C: {isComponent: true, methods: {m: "pkg:index:C/m"}}}
functions: {pkg:index:C/m: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:C"}, constructor: {type: string}}, required: [__self__]}}}`,
		[]string{"TypeScript pkg:index:C"}},
	{"methods the generators take", `
resources:
  pkg:index:C:
    isComponent: true
    methods: {delete: "pkg:index:C/delete", class: "pkg:index:C/class", lambda: "pkg:index:C/lambda", id: "pkg:index:C/id", getResource: "pkg:index:C/getResource", opts: "pkg:index:C/opts"}
functions:
  pkg:index:C/delete: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:C"}, class: {type: string}}, required: [__self__]}}
  pkg:index:C/class: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:C"}, opts: {type: string}}, required: [__self__]}}
  pkg:index:C/lambda: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:C"}, constructor: {type: string}, x: {type: string}}, required: [__self__, x]}}
  pkg:index:C/id: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:C"}}, required: [__self__]}}
  pkg:index:C/getResource: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:C"}}, required: [__self__]}}
  pkg:index:C/opts: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:C"}}, required: [__self__]}}`, nil},

	// --- Modules ---
	{"module types", `resources: {pkg:types:R: {properties: {a: {type: string}}}}`,
		[]string{"TypeScript pkg:types:R"}},
	{"module let", `resources: {pkg:let:R: {properties: {a: {type: string}}}}`,
		[]string{"TypeScript pkg:let:R"}},
	{"module Static", `resources: {pkg:Static:R: {properties: {a: {type: string}}}}`,
		[]string{"TypeScript pkg:Static:R"}},
	{"module utilities", `resources: {pkg:utilities:R: {properties: {a: {type: string}}}}`,
		[]string{"TypeScript pkg:utilities:R"}},
	{"module type", `resources: {pkg:type:R: {properties: {a: {type: string}}}}`,
		[]string{"Go pkg:type:R"}},
	{"module a/func", `resources: {pkg:a/func:R: {properties: {a: {type: string}}}}`,
		[]string{"Go pkg:a/func:R"}},
	{"module default: TypeScript escapes it, Go cannot", `resources: {pkg:default:R: {properties: {a: {type: string}}}}`,
		[]string{"Go pkg:default:R"}},
	{"module internal", `resources: {pkg:internal:R: {properties: {a: {type: string}}}}`,
		[]string{"Go pkg:internal:R"}},
	{"module by moduleFormat: aws:s3/bucket is module s3", `
meta: {moduleFormat: "(.*)(?:/[^/]*)"}
resources: {pkg:type/thing:R: {properties: {a: {type: string}}}}`,
		[]string{"Go pkg:type/thing:R"}},
	{"module renamed for TypeScript and Go", `
language: {nodejs: {moduleToPackage: {let: allowed}}, go: {moduleToPackage: {let: allowed}}}
resources: {pkg:let:R: {properties: {a: {type: string}}}}`, nil},
	{"modules the generators take", `
resources:
  pkg:class:R: {properties: {a: {type: string}}}
  pkg:lambda:R: {properties: {a: {type: string}}}
  pkg:from:R: {properties: {a: {type: string}}}
  pkg:module:R: {properties: {a: {type: string}}}
  pkg:exports:R: {properties: {a: {type: string}}}
  pkg:require:R: {properties: {a: {type: string}}}
  pkg:typing:R: {properties: {a: {type: string}}}
  pkg:config:R: {properties: {a: {type: string}}}
  pkg:string:R: {properties: {a: {type: string}}}
  pkg:storage/v1:R: {properties: {a: {type: string}}}`, nil},

	// --- Configuration ---
	{"config class", `config: {variables: {class: {type: string}}}`, []string{"TypeScript pkg:class"}},
	{"config enum", `config: {variables: {enum: {type: string}}}`, []string{"TypeScript pkg:enum"}},
	{"config let", `config: {variables: {let: {type: string}}}`, []string{"TypeScript pkg:let"}},
	{"config eval", `config: {variables: {eval: {type: string}}}`, []string{"TypeScript pkg:eval"}},
	{"config Object", `config: {variables: {Object: {type: string}}}`, []string{"TypeScript pkg:Object"}},
	{"config __config", `config: {variables: {__config: {type: string}}}`, []string{"TypeScript pkg:__config"}},
	{"config exports", `config: {variables: {exports: {type: string}}}`, []string{"TypeScript pkg:exports"}},
	{"config utilities", `config: {variables: {utilities: {type: string}}}`, []string{"TypeScript pkg:utilities"}},
	{"config my-var", `config: {variables: {my-var: {type: string}}}`, []string{"TypeScript pkg:my-var"}},
	{"config the generators take", `
config:
  variables:
    yield: {type: string}
    await: {type: string}
    static: {type: string}
    interface: {type: string}
    require: {type: string}
    module: {type: string}
    String: {type: string}
    Error: {type: string}
    lambda: {type: string}
    type: {type: string}
    storageUrl: {type: string}`, nil},

	// --- The reference package, renamed ---
	{"sitekit's names", `
config: {variables: {storageUrl: {type: string}, accessToken: {type: string, secret: true}}}
provider: {inputProperties: {storageUrl: {type: string}, accessToken: {type: string}}}
types: {pkg:index:ContentType: {type: string, enum: [{name: Html, value: text/html}]}}
resources:
  pkg:index:Site:
    isComponent: true
    inputProperties: {indexContent: {type: string}, pages: {type: object, additionalProperties: {type: string}}}
    properties: {url: {type: string}, bucket: {$ref: "#/resources/pkg:index:Bucket"}}
    methods: {pageUrl: "pkg:index:Site/pageUrl", addPage: "pkg:index:Site/addPage"}
  pkg:index:Bucket: {properties: {bucketName: {type: string}}}
  pkg:index:BucketObject:
    inputProperties: {bucket: {type: string}, key: {type: string}, contentType: {$ref: "#/types/pkg:index:ContentType"}}
    properties: {etag: {type: string}, size: {type: integer}}
functions:
  pkg:index:getObject: {inputs: {properties: {bucket: {type: string}, key: {type: string}}, required: [bucket, key]}, outputs: {properties: {content: {type: string}}}}
  pkg:index:Site/pageUrl: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:Site"}, page: {type: string}}, required: [__self__, page]}, outputs: {properties: {url: {type: string}}}}
  pkg:index:Site/addPage: {inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:Site"}, name: {type: string}}, required: [__self__, name]}, outputs: {properties: {url: {type: string}}}}`, nil},
}

func TestLanguageProblems(t *testing.T) {
	t.Parallel()
	for _, tc := range languageCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := Load([]byte("name: pkg\n" + tc.schema))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, pr := range p.LanguageProblems() {
				got = append(got, pr.Language+" "+pr.Token)
				if !strings.Contains(pr.Reason, "the "+pr.Language+" ") || !strings.Contains(pr.Reason, "; ") {
					t.Errorf("reason does not name the language and the fix: %s", pr)
				}
			}
			want := slices.Clone(tc.want)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("problems:\n got %q\nwant %q\n%v", got, want, p.LanguageProblems())
			}
		})
	}
}

// The known case, word for word: the TypeScript SDK of a resource named
// Object fails with TS2725.
func TestLanguageProblemsObject(t *testing.T) {
	t.Parallel()
	p, err := Load([]byte("name: sitekit\nresources: {sitekit:index:Object: {properties: {a: {type: string}}}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := p.LanguageProblems()
	want := []Problem{{Token: "sitekit:index:Object", Language: TypeScript,
		Reason: "the TypeScript SDK would declare a class named Object, which TypeScript refuses (TS2725: Class name cannot be 'Object' when targeting ES5 and above with module NodeNext); rename the resource"}}
	if !slices.Equal(got, want) {
		t.Fatalf("LanguageProblems() = %v, want %v", got, want)
	}
}

// The names as the generators write them, on their own test cases
// (codegen/cgstrings, codegen/python python_test.go, codegen/go Title).
func TestGeneratorNames(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "", "plugh": "plugh", "WaldoThudFred": "waldoThudFred",
		"Grault-Baz": "graultBaz", "grault-baz": "graultBaz", "Grault_Baz": "grault_Baz", "URLMap": "urlmap"} {
		if got := camel(in); got != want {
			t.Errorf("camel(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"waldo-thud-fred": "waldoThudFred", "waldo-Thud-Fred-": "waldoThudFred",
		"-waldo-Thud-Fred": "WaldoThudFred", "WaldoThudFred": "WaldoThudFred"} {
		if got := unhyphenate(in); got != want {
			t.Errorf("unhyphenate(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"IPAddress": "ip_address", "someCIDRBlock": "some_cidr_block",
		"firstName": "first_name", "SHA256Hash": "sha256_hash", "SHA256Hash123": "sha256_hash123",
		"Sha256Hash": "sha256_hash", "IPAddresses": "ip_addresses", "IPs": "ips", "GetPublicIPs": "get_public_i_ps",
		"class": "class_", "None": "none", "lambda": "lambda_", "resource-name": "resource_name", "__self__": "__self__"} {
		if got := pyName(in); got != want {
			t.Errorf("pyName(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"resourceName": "resource_name_", "opts": "opts_", "bucket": "bucket"} {
		if got := pyInitParamName(in); got != want {
			t.Errorf("pyInitParamName(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"$ref": "Ref", "foo-bar": "FooBar", "type": "Type", "1abc": "_1abc"} {
		if got := goTitle(in); got != want {
			t.Errorf("goTitle(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]bool{"a": true, "$x": true, "_1": true, "1a": false, "my-var": false, "": false, "été": true} {
		if got := jsIdentifierName(in); got != want {
			t.Errorf("jsIdentifierName(%q) = %v, want %v", in, got, want)
		}
	}
}
