module example.com/hard

go 1.22
