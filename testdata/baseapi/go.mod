module example.com/baseapi

go 1.26

require github.com/polyhost/polyhost v0.0.0

replace github.com/polyhost/polyhost => ../..
