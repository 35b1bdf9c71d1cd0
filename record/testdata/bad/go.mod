module example.com/bad

go 1.22
