module github.com/lockaudit/lockaudit

go 1.26.8

require gopkg.in/yaml.v3 v3.0.1

require golang.org/x/tools v0.52.0
